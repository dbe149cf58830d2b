"""The one exception type that reaches the user as a single line and exit code 2."""


class UserError(Exception):
    """Bad input from the user: the message names the file, line or key and what was expected."""


class Interrupted(Exception):
    """Ctrl-C reached a command that has more to say than `interrupted` (e.g. where its work is); exit 130."""
