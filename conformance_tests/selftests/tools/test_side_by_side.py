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

"""tools/side_by_side: lanes run at once, each in order, every failure
reported and none hidden, signals passed on, bad input one line."""

import io
import os
import shlex
import signal
import subprocess
import sys

import fixtures
import testtools

from conformance_tests.tools import side_by_side

PY = sys.executable
# Bound for the handshakes below: a lane that never sees its peer's file
# fails the test instead of hanging it.
BOUND = 60


def py(code):
    return shlex.join([PY, '-c', code])


class ParseTest(testtools.TestCase):

    def test_lanes_and_their_commands(self):
        lanes = side_by_side.parse_lanes([
            '--lane', 'a', 'echo 1', 'echo "two words"',
            '--lane', 'b', 'true'])
        self.assertEqual([('a', [['echo', '1'], ['echo', 'two words']]),
                          ('b', [['true']])], lanes)

    def test_bad_input_is_one_line_naming_what_to_fix(self):
        for argv, says in (
                ([], 'the following arguments are required: --lane'),
                (['--lane', 'a', 'true'], 'at least two --lane'),
                (['--lane', 'a', '--lane', 'b', 'true'], 'lane a has no '
                 'command'),
                (['--lane', 'a', 'true', '--lane', 'a', 'true'],
                 'lane a is named twice'),
                (['--lane', 'a', '"open', '--lane', 'b', 'true'],
                 'cannot split'),
                (['--lane', 'a', ' ', '--lane', 'b', 'true'],
                 'empty command')):
            error = self.assertRaises(side_by_side.LaneError,
                                      side_by_side.parse_lanes, argv)
            self.assertIn(says, str(error))
            self.assertNotIn('\n', str(error))

    def test_main_exits_2_with_one_line(self):
        done = subprocess.run(
            [PY, '-m', 'conformance_tests.tools.side_by_side', '--lane',
             'a', 'true'], capture_output=True, text=True)
        self.assertEqual(2, done.returncode)
        self.assertEqual(1, len(done.stderr.splitlines()), done.stderr)
        self.assertIn('at least two --lane', done.stderr)


class RunTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def run_lanes(self, *lanes):
        out = io.StringIO()
        parsed = side_by_side.parse_lanes(
            [word for name, commands in lanes
             for word in ['--lane', name] + commands])
        results = side_by_side.Lanes(parsed, out).run()
        return parsed, results, out.getvalue().splitlines()

    def handshake(self, mine, theirs):
        """A command that writes ``mine`` and exits 0 once ``theirs``
        exists: it can only pass while the other lane runs too."""
        return py(
            'import os, sys, time\n'
            'open(%r, "w").close()\n'
            'end = time.monotonic() + %d\n'
            'while not os.path.exists(%r):\n'
            '    if time.monotonic() > end: sys.exit(3)\n'
            '    time.sleep(0.05)\n' % (
                os.path.join(self.dir, mine), BOUND,
                os.path.join(self.dir, theirs)))

    def test_lanes_run_at_once_and_each_in_order(self):
        parsed, results, lines = self.run_lanes(
            ('left', [self.handshake('l', 'r'), 'echo after-left']),
            ('right', [self.handshake('r', 'l')]))
        self.assertEqual([0, 0], [code for _, code, _ in results['left']])
        self.assertEqual([0], [code for _, code, _ in results['right']])
        # Each line carries its lane; a lane's commands in order.
        self.assertIn('[left ] after-left', lines)
        left = [line for line in lines if line.startswith('[left ]')]
        self.assertLess(
            left.index('[left ] command 1 of 2 exited 0 in %s' % (
                [line for line in left if 'command 1 of 2 exited' in line
                 ][0].rsplit(' in ', 1)[1])),
            left.index('[left ] after-left'))
        passed, summary = side_by_side.summary(parsed, results, 1.0)
        self.assertTrue(passed)
        self.assertEqual('side by side: every command passed in 1 s',
                         summary[-1])

    def test_a_failure_stops_its_lane_not_the_others(self):
        parsed, results, lines = self.run_lanes(
            ('bad', ['false', 'echo never']),
            ('good', ['echo one', 'echo two']))
        self.assertEqual([1], [code for _, code, _ in results['bad']])
        self.assertEqual([0, 0], [code for _, code, _ in results['good']])
        self.assertNotIn('[bad ] never', lines)
        passed, summary = side_by_side.summary(parsed, results, 2.0)
        self.assertFalse(passed)
        self.assertTrue(summary[0].startswith('bad: FAILED (exit 1) false ('),
                        summary)
        self.assertIn('bad: not run echo never', summary)
        self.assertEqual('side by side: FAILED in 2 s; failed: bad: false',
                         summary[-1])

    def test_the_summary_repeats_a_failed_commands_last_lines(self):
        # CI shows a log's tail: the cause must be in it, not only in
        # the lane's lines an hour earlier.
        out = io.StringIO()
        parsed = side_by_side.parse_lanes([
            '--lane', 'bad', py('print("\\n".join(map(str, range(9))))\n'
                                'print("the cause"); raise SystemExit(3)'),
            '--lane', 'good', 'true'])
        lanes = side_by_side.Lanes(parsed, out)
        results = lanes.run()
        passed, summary = side_by_side.summary(parsed, results, 1.0,
                                               lanes.tails)
        self.assertFalse(passed)
        self.assertEqual(['bad: its failed command ended with:',
                          'bad:   5', 'bad:   6', 'bad:   7', 'bad:   8',
                          'bad:   the cause'], summary[-7:-1])
        self.assertNotIn('good: its failed command ended with:', summary)

    def test_a_command_that_cannot_start_is_a_failure(self):
        parsed, results, lines = self.run_lanes(
            ('a', ['/nonexistent/command']), ('b', ['true']))
        self.assertEqual([127], [code for _, code, _ in results['a']])
        self.assertTrue(any('cannot start /nonexistent/command' in line
                            for line in lines), lines)
        self.assertFalse(side_by_side.summary(parsed, results, 0)[0])

    def test_sigterm_reaches_every_running_command(self):
        marks = [os.path.join(self.dir, name) for name in ('a', 'b')]
        commands = [py(
            'import signal, sys, time\n'
            'def stop(*_):\n'
            '    open(%r, "w").close(); sys.exit(0)\n'
            'signal.signal(signal.SIGTERM, stop)\n'
            'print("ready", flush=True)\n'
            'time.sleep(%d)\n' % (mark, BOUND)) for mark in marks]
        process = subprocess.Popen(
            [PY, '-m', 'conformance_tests.tools.side_by_side',
             '--lane', 'a', commands[0], 'echo never',
             '--lane', 'b', commands[1]],
            stdout=subprocess.PIPE, text=True)
        ready = 0
        for line in process.stdout:
            ready += line.rstrip().endswith('] ready')
            if ready == 2:
                break
        process.send_signal(signal.SIGTERM)
        out = process.communicate(timeout=BOUND)[0]
        self.assertEqual(130, process.returncode)
        for mark in marks:
            self.assertTrue(os.path.exists(mark), 'no SIGTERM reached %s' %
                            mark)
        self.assertNotIn('never', out.replace('echo never', ''))
        self.assertIn('a: not run echo never', out)


class HelpTest(testtools.TestCase):

    def test_help_names_the_lane_option(self):
        done = subprocess.run(
            [PY, '-m', 'conformance_tests.tools.side_by_side', '--help'],
            capture_output=True, text=True)
        self.assertEqual(0, done.returncode)
        self.assertIn('--lane NAME [COMMAND ...]', done.stdout)
