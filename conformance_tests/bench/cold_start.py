"""Cold start: the launcher's own "X ready (t s)" lines, collected."""

import re

READY = re.compile(r'^(?P<name>[\w-]+) ready \((?P<s>[0-9.]+) s\)$')
ALL_READY = re.compile(r'^cloud ready in (?P<s>[0-9.]+) s')


class ReadyLines(object):
    """A ``say`` for EmbeddedCloud that keeps the times it announces
    (seconds since the start of `up`) and passes every line on."""

    def __init__(self, say):
        self.say = say
        self.services = {}
        self.total = None

    def __call__(self, line):
        match = READY.match(line)
        if match:
            self.services[match.group('name')] = float(match.group('s'))
        match = ALL_READY.match(line)
        if match:
            self.total = float(match.group('s'))
        self.say(line)

    def figures(self):
        return {'services_s': dict(self.services), 'total_s': self.total}
