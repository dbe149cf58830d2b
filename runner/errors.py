"""The one exception type that reaches the user as a single line and exit code 2."""


class UserError(Exception):
    """Bad input from the user: the message names the file, line or key and what was expected."""
