"""Work of a report done beside it in a forked child, which sees the report's data without copying it (a
million outcomes would take longer to send than to draw): the pictures, while the tables are written."""
from __future__ import annotations

import os
import pickle
import signal
from typing import Any, Callable

from runner.children import write_all
from runner.errors import UserError, WriteFailed


class Forked:
    """`fn()` running in a forked child from now; `result()` is its return value, or its exception raised
    here again (WriteFailed and UserError with their one line)."""

    def __init__(self, fn: Callable[[], Any]):
        self._read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:   # the child: run, send the outcome, leave without running the parent's exit code
            os.close(self._read)
            code = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to act on: it stops us
                try:
                    outcome = ("ok", fn())
                except WriteFailed as exc:
                    outcome = ("write", str(exc))
                except UserError as exc:
                    outcome = ("user", str(exc))
                except BaseException as exc:   # a bug: the parent says so in one line
                    outcome = ("bug", f"{type(exc).__name__}: {exc}")
                data = pickle.dumps(outcome)
                write_all(write, data)   # whole, even if the child is stopped and continued mid-write
                os.close(write)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(write)

    def result(self) -> Any:
        """Wait for the child; its return value, or its error raised here."""
        with os.fdopen(self._read, "rb") as fh:
            data = fh.read()
        os.waitpid(self.pid, 0)
        self.pid = 0
        try:
            kind, value = pickle.loads(data)
        except Exception:
            raise UserError("the report's drawing process died before it finished; rerun `bench report`") from None
        if kind == "ok":
            return value
        if kind == "write":
            raise _WriteFailedLine(value)
        if kind == "user":
            raise UserError(value)
        raise RuntimeError(value)

    def stop(self) -> None:
        """End the child if it still runs (the report failed or was interrupted)."""
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.pid = 0


class _WriteFailedLine(WriteFailed):
    """A WriteFailed from the child, its line as it was said there (exit 3)."""

    def __init__(self, line: str):
        UserError.__init__(self, line)
