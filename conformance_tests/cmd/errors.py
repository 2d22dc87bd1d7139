"""The one error a command reports: one line saying what to fix, exit 2
(cmd/main.py), never a traceback. Every command module raises it (or a
subclass naming its command); none imports another command for it."""


class CommandError(Exception):
    """One-line, user-fixable problem."""
