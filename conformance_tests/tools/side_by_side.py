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

"""Run lanes of commands side by side; each lane's commands in order.

    python -m conformance_tests.tools.side_by_side \\
        --lane NAME 'COMMAND ...' ['COMMAND ...' ...] \\
        --lane NAME 'COMMAND ...' ...

`tox -e check` uses it to run the packaged cloud's steps beside the
embedded cloud's: the two clouds share nothing (ports, workdirs, lock
paths), and each mostly waits on its own services' clocks, so on 2 cores
the pair takes far less than one after the other (doc/bench.md, "Where
`.ci/run`'s time goes").

A command is split as a shell would split it (shlex) but run without a
shell. Every line a command prints (stdout and stderr) is printed with
its lane's name in front. A lane stops at its first command that fails,
as tox stops; the other lanes run on to their end, so that nothing is
left half done (a packaged cloud stopped by its own `down`). The exit
status is 0 only when every command of every lane exited 0; a summary
gives each command's status and time. SIGTERM or Ctrl-C is passed to
every running command (each stops its own cloud), then the run exits.
"""

import argparse
import collections
import shlex
import signal
import subprocess
import sys
import threading
import time


#: How many of a failed command's last lines the summary repeats.
TAIL_LINES = 5


class LaneError(Exception):
    pass


def parse_lanes(argv):
    """[(name, [argv, ...]), ...] from the command line; LaneError
    (one line, what to fix) for bad input."""
    parser = _Parser(
        prog='python -m conformance_tests.tools.side_by_side',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--lane', nargs='+', action='append',
                        metavar=('NAME', 'COMMAND'), required=True,
                        help='a lane: its name, then its commands, each '
                             'one quoted argument')
    args = parser.parse_args(argv)
    lanes, names = [], set()
    for name, *commands in args.lane:
        if name in names:
            raise LaneError('lane %s is named twice: give each lane its '
                            'own name' % name)
        names.add(name)
        if not commands:
            raise LaneError('lane %s has no command: give it at least '
                            'one, quoted' % name)
        split = []
        for command in commands:
            try:
                words = shlex.split(command)
            except ValueError as e:
                raise LaneError('lane %s: cannot split %r: %s' % (
                    name, command, e))
            if not words:
                raise LaneError('lane %s has an empty command' % name)
            split.append(words)
        lanes.append((name, split))
    if len(lanes) < 2:
        raise LaneError('give at least two --lane: one lane is a plain '
                        'list of commands')
    return lanes


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise LaneError(message)


class Lanes(object):
    """The lanes' threads, their running processes and their results."""

    def __init__(self, lanes, out=sys.stdout):
        self.lanes = lanes
        self.out = out
        self.width = max(len(name) for name, _ in lanes)
        self.results = {name: [] for name, _ in lanes}
        #: The last lines a failed command printed, by lane.
        self.tails = {}
        self.running = {}
        self.stopping = threading.Event()
        self._lock = threading.Lock()

    def say(self, lane, line):
        with self._lock:
            self.out.write('[%-*s] %s\n' % (self.width, lane, line))
            self.out.flush()

    def run(self):
        """Every lane to its end; {lane: [(argv, exit status,
        seconds), ...]} of the commands that ran."""
        threads = [threading.Thread(target=self._lane, args=lane,
                                    name='lane-%s' % lane[0])
                   for lane in self.lanes]
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)  # the main thread keeps taking signals
        return self.results

    def stop(self, signum):
        """Pass ``signum`` to every running command; start no other."""
        self.stopping.set()
        with self._lock:
            running = list(self.running.values())
        for process in running:
            try:
                process.send_signal(signum)
            except ProcessLookupError:
                pass

    def _lane(self, name, commands):
        for number, command in enumerate(commands, 1):
            if self.stopping.is_set():
                return
            self.say(name, 'command %d of %d: %s' % (
                number, len(commands), shlex.join(command)))
            started = time.monotonic()
            tail = collections.deque(maxlen=TAIL_LINES)
            code = self._one(name, command, tail)
            took = time.monotonic() - started
            self.results[name].append((command, code, took))
            self.say(name, 'command %d of %d exited %s in %.0f s' % (
                number, len(commands), code, took))
            if code != 0:
                self.tails[name] = list(tail)
                return

    def _one(self, name, command, tail):
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, errors='replace',
                bufsize=1,
                # Its own session: a signal reaches it once, from stop(),
                # not also from the terminal's Ctrl-C.
                start_new_session=True)
        except OSError as e:
            self.say(name, 'cannot start %s: %s' % (command[0], e))
            return 127
        with self._lock:
            self.running[name] = process
        try:
            for line in process.stdout:
                self.say(name, line.rstrip('\n'))
                tail.append(line.rstrip('\n'))
            return process.wait()
        finally:
            with self._lock:
                self.running.pop(name, None)


def summary(lanes, results, took, tails=None):
    """The closing lines: every command's status and time, the last
    lines of each failed command (``tails``, by lane), and whether the
    whole run passed."""
    lines, failed, passed = [], [], True
    for name, commands in lanes:
        done = results[name]
        for command, code, seconds in done:
            lines.append('%s: %s %s (%.0f s)' % (
                name, 'ok' if code == 0 else 'FAILED (exit %s)' % code,
                shlex.join(command), seconds))
            if code != 0:
                failed.append('%s: %s' % (name, shlex.join(command)))
            passed = passed and code == 0
        for command in commands[len(done):]:
            lines.append('%s: not run %s' % (name, shlex.join(command)))
            passed = False
    for name, tail in sorted((tails or {}).items()):
        lines.append('%s: its failed command ended with:' % name)
        lines.extend('%s:   %s' % (name, line) for line in tail)
    # The last line names what failed: a log cut to its tail still says.
    lines.append('side by side: %s in %.0f s%s' % (
        'every command passed' if passed else 'FAILED', took,
        ''.join('; failed: %s' % f for f in failed)))
    return passed, lines


def main(argv=None):
    try:
        lanes = parse_lanes(sys.argv[1:] if argv is None else argv)
    except LaneError as e:
        print('side_by_side: error: %s' % e, file=sys.stderr)
        return 2
    run = Lanes(lanes)
    previous = {}
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous[signum] = signal.signal(
            signum, lambda signum, frame: run.stop(signum))
    started = time.monotonic()
    try:
        results = run.run()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    passed, lines = summary(lanes, results, time.monotonic() - started,
                            run.tails)
    for line in lines:
        print(line, flush=True)
    if run.stopping.is_set():
        return 130
    return 0 if passed else 1


if __name__ == '__main__':
    sys.exit(main())
