"""Progress lines for people watching long runs."""

import sys
import time

_START = time.monotonic()


def say(message):
    print('[%6.1fs] %s' % (time.monotonic() - _START, message), flush=True)


def fail(message):
    """A one-line error that says what to fix."""
    print('conformance: error: %s' % message, file=sys.stderr, flush=True)
