"""The runner: the `bench` CLI, and a sub-package per concern (config, source, engine, store, serving, fidelity, reporting, commands)."""
# orjson's module init imports these and does not check that the imports succeeded (ijl/orjson#310): a Ctrl-C that
# lands while its init imports `json` (a command's first `import orjson` runs after its signal handlers are set)
# crashed bench with SIGSEGV instead of "bench: interrupted" (1 to 3 Ctrl-Cs in 100 at `bench status`'s start).
# Imported here first, before anything imports orjson, they are found done and orjson's init runs no Python code.
import dataclasses  # noqa: F401
import datetime  # noqa: F401
import enum  # noqa: F401
import json  # noqa: F401
import uuid  # noqa: F401
