"""The runner: the `bench` CLI, and a sub-package per concern (config, source, engine, store, serving, fidelity, reporting, commands)."""
