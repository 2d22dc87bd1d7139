"""Progress lines for people watching long runs."""

import sys
import time

_START = time.monotonic()


def say(message):
    # One write per line: threads (the cloud's set-up steps) may say
    # things at once, and print() writes the newline separately.
    sys.stdout.write('[%6.1fs] %s\n' % (time.monotonic() - _START, message))
    sys.stdout.flush()


def fail(message):
    """A one-line error that says what to fix."""
    print('conformance: error: %s' % message, file=sys.stderr, flush=True)
