"""How a `bench` command ends: one line and an exit code for a user's error (2), a failed write (3), click's
usage errors (2) and a signal (128 + its number; SIGTERM and SIGHUP unwind like Ctrl-C), never a traceback."""
from __future__ import annotations

import sys
from typing import Any, Callable, NoReturn, Protocol, cast

import click
import typer

from runner.errors import Interrupted, Terminated, UserError, WriteFailed


class _ClickError(Protocol):
    """What click's errors and those of Typer's own copy of click share (they have no common base class)."""

    ctx: Any

    def format_message(self) -> str: ...


def _click_errors() -> tuple[type[BaseException], ...]:
    # Typer >= 0.20 carries its own copy of click: its errors are not click's classes.
    classes: list[type[BaseException]] = [click.ClickException]
    try:
        from typer._click.exceptions import ClickException as TyperClickException
        classes.append(TyperClickException)
    except ImportError:
        pass
    return tuple(classes)


_SIGNALLED: list[int] = []   # the signal that stopped a command (Typer may turn it into Exit(130) on its way)


_MAIN_PID: list[int] = []


def _terminated(signum: int, frame: object) -> None:
    import os
    import signal
    if _MAIN_PID and os.getpid() != _MAIN_PID[0]:   # a forked helper (a report's pool worker): die as by default
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _SIGNALLED.append(signum)
    raise Terminated(signum)


def _lost_interrupt(unraisable: Any) -> None:
    """sys.unraisablehook: Python ignores an exception raised inside a finalizer (a `__del__`, a generator closed
    as it is dropped, a weakref or gc callback), so a Ctrl-C (or SIGTERM, SIGHUP) whose handler ran there was lost
    and the command went on as if never stopped: the signal is taken again, from a thread, once the finalizer is
    left (the thread waits, so it does not land in this hook). Any other exception: Python's own hook."""
    exc = unraisable.exc_value
    if not isinstance(exc, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)
        return
    import _thread
    import signal
    _thread.start_new_thread(_again, (exc.signum if isinstance(exc, Terminated) else signal.SIGINT,))


def _again(signum: int) -> None:
    import _thread
    import signal
    import time
    time.sleep(0.01)   # this thread runs once the main one lets go of the GIL (5 ms at most): the hook has long returned
    _thread.interrupt_main(signal.Signals(signum))


def _stopped(term: int | None, said: str | None = None) -> None:
    """Exit as a command stopped by a signal: one line, 128 + its number (130 for Ctrl-C); `said`: what the command
    has to add (an Interrupted's message: where its work is)."""
    import signal
    if term is None:
        click.echo("bench: interrupted" + (f"; {said}" if said else ""), err=True)
        sys.exit(130)
    click.echo(f"bench: stopped by {signal.Signals(term).name}; {said or 'nothing half-written was kept'}", err=True)
    sys.exit(128 + term)


def _engine_interrupted(exc: BaseException) -> bool:
    """Whether `exc` is DuckDB's word for a query it stopped because a signal's handler raised (Ctrl-C, or our
    SIGTERM's): the engine takes that KeyboardInterrupt in and raises this instead. Bench never interrupts a query
    itself, so it means a signal."""
    return type(exc).__name__ == "InterruptException" or str(exc) == "Query interrupted"


def run_command(app: Callable[..., Any], args: list[str]) -> NoReturn:
    """Run the command line `app` on `args` and exit: user errors become one line on stderr and exit code 2,
    a failed write 3, a signal 128 + its number; never a traceback."""
    import os
    import signal
    _MAIN_PID.append(os.getpid())
    try:   # the handlers inside: a Ctrl-C as soon as they are set (tests wait on them) ends in one line
        for sig in (signal.SIGTERM, signal.SIGHUP):   # commands that stop their own way (run, serve) set theirs
            signal.signal(sig, _terminated)
        sys.unraisablehook = _lost_interrupt
        from runner.config import environment
        environment.check()
        code = app(args=args, standalone_mode=False)
    except WriteFailed as exc:   # disk full, I/O error: not the user's input, and said apart
        from runner.config.checks import one_line
        click.echo(f"bench: error: {one_line(str(exc))}", err=True)
        sys.exit(3)
    except UserError as exc:   # one line, whatever a user-given name or value held
        from runner.config.checks import one_line
        click.echo(f"bench: error: {one_line(str(exc))}", err=True)
        sys.exit(2)
    except _click_errors() as caught:
        said = cast(_ClickError, caught)   # one of _click_errors' classes: each has this interface
        if type(caught).__name__ == "NoArgsIsHelpError":
            click.echo(said.format_message(), err=True)   # the help text itself
            sys.exit(2)
        ctx = getattr(caught, "ctx", None)
        where = f"bench {ctx.info_name}" if ctx is not None and ctx.info_name not in (None, "bench") else "bench"
        message = " ".join(said.format_message().split())
        click.echo(f"{where}: error: {message}", err=True)
        sys.exit(2)
    except OSError as exc:
        import errno
        if exc.errno != errno.ENAMETOOLONG:   # any other is a fault of ours or the machine's: its traceback says where
            raise
        # a path given on the command line (or made from one) the file system refuses by its length: one line
        name = str(exc.filename or "a path")
        click.echo(f"bench: error: {name if len(name) <= 80 else name[:40] + '...' + name[-30:]}: a name too long "
                   "for the file system; give a shorter path", err=True)
        sys.exit(2)
    except Interrupted as exc:
        _stopped(exc.signum, str(exc))
    except (click.Abort, typer.Abort, KeyboardInterrupt):
        _stopped(_SIGNALLED[0] if _SIGNALLED else None)
    except RuntimeError as exc:
        if not _engine_interrupted(exc):
            raise
        _stopped(_SIGNALLED[0] if _SIGNALLED else None)
    if code == 130:   # Typer turns Ctrl-C (and our SIGTERM) into Exit(130) before we see it
        _stopped(_SIGNALLED[0] if _SIGNALLED else None)
    sys.exit(code if isinstance(code, int) else 0)
