"""The exceptions that reach the user as a single line: bad input (exit 2), a failed write (exit 3), Ctrl-C (130),
SIGTERM and SIGHUP (128 + the signal)."""


class UserError(Exception):
    """Bad input from the user: the message names the file, line or key and what was expected."""


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM, SIGHUP: `signum`) reached a command that has more to say than `interrupted` (e.g. where
    its work is); exit 130, or 128 + the signal's number."""

    def __init__(self, message: str, signum: int | None = None) -> None:
        super().__init__(message)
        self.signum = signum

    @classmethod
    def by(cls, exc: KeyboardInterrupt, message: str) -> "Interrupted":
        """The Interrupted a KeyboardInterrupt (Ctrl-C, or a Terminated) becomes, keeping its signal."""
        return cls(message, exc.signum if isinstance(exc, Terminated) else None)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C, so every half-written file is removed on the way out."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class WriteFailed(UserError):
    """A file could not be written (disk full, I/O error, read-only folder): exit 3. What is on disk stays
    whole, and the same command, run again once the cause is fixed, does the rest (a run resumes; generate and
    report write their files anew)."""

    def __init__(self, path: object, exc: OSError) -> None:
        super().__init__(f"{path}: cannot write ({exc.strerror or exc}); what is on disk is kept: fix the cause "
                         "(free space, permissions), then rerun the same command")


def printable(text: str) -> str:
    """Text from outside (a grid's value, a server's answer, a log) as it may be printed: its control characters
    escaped, so it can neither break a one-line message nor move the terminal's cursor or colours."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
