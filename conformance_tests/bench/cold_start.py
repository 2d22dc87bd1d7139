#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.

"""Cold start: the launcher's own "X ready (t s)" lines, collected."""

import re
import subprocess
import sys

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


IMPORT_TIMER = (
    'import importlib, sys, time\n'
    't = time.perf_counter()\n'
    'for name in sys.argv[1:]:\n'
    '    importlib.import_module(name)\n'
    'print(round(time.perf_counter() - t, 2))\n')


def import_floor(descriptors, run=subprocess.run, python=sys.executable):
    """Seconds each service process spends importing its upstream modules,
    each in a fresh interpreter, one at a time: a cold start cannot be
    shorter than the longest of these, nor than their sum over the cores
    (the processes start together). {process: seconds or None}."""
    modules = {}
    for service in descriptors:
        if service.imports:
            modules.setdefault(service.process, []).extend(service.imports)
    floor = {}
    for process, names in sorted(modules.items()):
        done = run([python, '-c', IMPORT_TIMER] + names,
                   capture_output=True, text=True, timeout=300)
        try:
            floor[process] = float(done.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            floor[process] = None
    return floor


def floor_bound(floor, cores):
    """The import floor of a cold start: the processes import side by
    side, so a start is no shorter than the longest import nor than their
    sum over the cores. None when nothing was timed."""
    known = [s for s in (floor or {}).values() if s is not None]
    if not known:
        return None
    return round(max(max(known), sum(known) / (cores or 1)), 1)
