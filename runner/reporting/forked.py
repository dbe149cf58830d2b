"""Work of a report done beside it in a forked child: the pictures, while the tables are written. The child is
started before the logs are read (`Forked.early`), so that importing matplotlib overlaps the reading, and is sent
its job (the summary rows: a few hundred) once the figures are known."""
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

    def __init__(self, fn: Callable[[], Any], prepare: Callable[[], Any] | None = None, what: str = "drawing"):
        self.what = what   # what the child does, for the line that says it died
        self._read, write = os.pipe()
        self._job = -1
        if prepare is not None:   # early: the job comes later, through a pipe of its own
            job_read, self._job = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:   # the child: run, send the outcome, leave without running the parent's exit code
            os.close(self._read)
            code = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to act on: it stops us
                try:
                    if prepare is not None:
                        os.close(self._job)
                        fn = _job(job_read, prepare)
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
        if prepare is not None:
            os.close(job_read)

    @classmethod
    def early(cls, prepare: Callable[[], Any]) -> "Forked":
        """A child started now that runs `prepare()` (imports), then waits for `send(fn, *args)`."""
        return cls(_nothing, prepare)

    def send(self, fn: Callable[..., Any], *args: Any) -> None:
        """The early child's job: `fn(*args)` (a module's function and picklable arguments)."""
        data = pickle.dumps((fn, args))
        try:   # its length first: a forked helper of the report may hold this pipe open too (no EOF to wait on)
            write_all(self._job, len(data).to_bytes(8, "big") + data)
        except OSError:   # the child died: result() says so in its line
            pass
        finally:
            os.close(self._job)
            self._job = -1

    def result(self) -> Any:
        """Wait for the child; its return value, or its error raised here."""
        with os.fdopen(self._read, "rb") as fh:
            self._read = -1
            data = fh.read()
        os.waitpid(self.pid, 0)
        self.pid = 0
        try:
            kind, value = pickle.loads(data)
        except Exception:
            raise UserError(f"the report's {self.what} process died before it finished; rerun `bench report`") from None
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
        if self._job >= 0:
            os.close(self._job)
            self._job = -1
        if self._read >= 0:   # its outcome never read
            os.close(self._read)
            self._read = -1


def _nothing() -> None:
    return None


def _job(fd: int, prepare: Callable[[], Any]) -> Callable[[], Any]:
    """In an early child: prepare, then read the job sent (none if the report ended first: the pipe closed)."""
    try:
        prepare()
    except Exception:   # matplotlib missing or broken: the job itself says so in its one line
        pass
    with os.fdopen(fd, "rb") as fh:
        head = fh.read(8)
        if len(head) < 8:   # the report ended (or failed) without pictures
            os._exit(0)
        fn, args = pickle.loads(fh.read(int.from_bytes(head, "big")))
    return lambda: fn(*args)


class _WriteFailedLine(WriteFailed):
    """A WriteFailed from the child, its line as it was said there (exit 3)."""

    def __init__(self, line: str):
        UserError.__init__(self, line)
