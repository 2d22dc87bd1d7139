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

"""cmd/main.py: one-line errors and the mutant list, no cloud started."""

import contextlib
import io
import os
import signal
import time

import fixtures
import testtools

from conformance_tests.cloud import mutants
from conformance_tests.cmd import main


class MainTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.workdir = os.path.join(
            self.useFixture(fixtures.TempDir()).path, 'work')

        # A guard: no test here may ever start a service process.
        def no_spawn(*args, **kwargs):
            raise AssertionError('a self-test tried to start the cloud')

        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.launcher.EmbeddedCloud._spawn',
            no_spawn))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.launcher.start_zygotes', no_spawn))

    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main.main(argv)
        return code, out.getvalue(), err.getvalue()

    def test_unknown_mutant_is_a_one_line_error(self):
        code, out, err = self.run_main([
            'cloud', 'up', '--mutant', 'no-such-mutant',
            '--workdir', self.workdir, '--port-base', '18990'])
        self.assertEqual(2, code)
        lines = err.splitlines()
        self.assertEqual(1, len(lines), err)
        self.assertTrue(lines[0].startswith('conformance: error:'), err)
        self.assertIn('no-such-mutant', lines[0])
        self.assertNotIn('Traceback', err)
        self.assertEqual('', out)

    def test_unknown_mutant_leaves_no_state(self):
        self.run_main([
            'cloud', 'up', '--mutant', 'no-such-mutant',
            '--workdir', self.workdir, '--port-base', '18990'])
        self.assertFalse(os.path.exists(self.workdir))

    def test_mutants_list(self):
        code, out, err = self.run_main(['mutants', '--list'])
        self.assertEqual(0, code)
        self.assertEqual('', err)
        lines = out.splitlines()
        known = mutants.all_mutants()
        self.assertEqual(len(known), len(lines))
        for m, line in zip(known, lines):
            self.assertEqual(m.name, line.split()[0])
            self.assertIn(m.service, line)

    def test_mutants_only_unknown_is_a_one_line_error(self):
        code, out, err = self.run_main([
            'mutants', '--only', 'no-such-mutant',
            '--workdir', self.workdir, '--port-base', '18990'])
        self.assertEqual(2, code)
        self.assertEqual(1, len(err.splitlines()), err)
        self.assertTrue(err.startswith('conformance: error:'), err)

    def test_report_without_results_is_a_one_line_error(self):
        code, out, err = self.run_main(['report', '--workdir', self.workdir])
        self.assertEqual(2, code)
        self.assertEqual(1, len(err.splitlines()), err)
        self.assertIn('no results at', err)

    def test_sigterm_unwinds_so_what_was_started_is_stopped(self):
        stopped = []

        def command(args):
            try:  # stands for cloud.up(); run; finally cloud.down()
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(10)
            finally:
                stopped.append(True)

        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.select.cmd_select', command))
        before = signal.getsignal(signal.SIGTERM)
        started = time.monotonic()
        code, out, err = self.run_main(['select', '--seed', '003'])
        self.assertEqual(143, code)
        self.assertEqual([True], stopped)
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(1, len(err.splitlines()), err)
        self.assertIn('terminated', err)
        self.assertIs(before, signal.getsignal(signal.SIGTERM))

    def test_missing_subcommand_is_a_usage_error(self):
        # Not cliff's interactive shell: a CI step or a script that
        # forgot its command must end, with one line.
        code, out, err = self.run_main([])
        self.assertEqual(2, code)
        self.assertEqual(
            'conformance: error: name a command (`conformance --help` '
            'lists them)\n', err)

    def test_help_lists_every_command_of_every_module(self):
        code, out, err = self.run_main(['--help'])
        self.assertEqual(0, code, err)
        self.assertTrue(out.startswith('usage: conformance '), out)
        words = sorted(main.command_classes())
        self.assertGreater(len(words), len(main.COMMANDS))
        for word in words:
            self.assertIn('\n  %s ' % word, out)

    def test_a_command_of_two_words_has_its_own_help(self):
        code, out, err = self.run_main(['cloud', 'up', '--help'])
        self.assertEqual(0, code, err)
        self.assertTrue(out.startswith('usage: conformance cloud up '), out)
        self.assertIn('--detach', out)
        self.assertIn('start the embedded cloud', out)

    def test_a_two_word_command_sets_the_word_its_module_reads(self):
        seen = []
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.packaged.cmd_packaged',
            lambda args: seen.append(args.action) or 0))
        for action in ('up', 'down', 'status', 'run'):
            self.assertEqual(0, main.main(['packaged', action]))
        self.assertEqual(['up', 'down', 'status', 'run'], seen)

    def test_an_unknown_command_names_the_near_ones(self):
        code, out, err = self.run_main(['clod', 'up'])
        self.assertEqual(2, code)
        self.assertIn("'clod up' is not a conformance command", out)
        self.assertIn('cloud up', out)

    def test_each_module_command_is_a_parser_of_build_parser(self):
        # cliff runs the parsers build_parser() shows the self-tests.
        parser = main.build_parser()
        sub = [a for a in parser._actions if a.dest == 'command'][0]
        for word, cls in main.command_classes().items():
            self.assertIn(word.split()[0], sub.choices, word)


class BadInputTest(MainTest):
    """Bad input gets one line saying what to fix, never a report."""

    def one_line_error(self, argv):
        code, out, err = self.run_main(argv)
        self.assertEqual(2, code, out + err)
        self.assertEqual(1, len(err.splitlines()), err)
        self.assertNotIn('Traceback', err)
        return err

    def test_report_of_a_file_that_is_not_subunit(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path, 'x')
        with open(path, 'w') as f:
            f.write('hello\n')
        err = self.one_line_error(['report', '--subunit', path, '--target',
                                   't', '--workdir', self.workdir])
        self.assertIn('holds no subunit v2 test result', err)

    def test_run_with_a_file_that_is_not_a_tempest_conf(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path, 'c')
        with open(path, 'w') as f:
            f.write('just some text\nno sections\n')
        err = self.one_line_error(['run', '--tempest-conf', path,
                                   '--workdir', self.workdir])
        self.assertIn('is not a tempest.conf', err)

    def test_run_with_an_ini_without_identity(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path, 'c')
        with open(path, 'w') as f:
            f.write('[DEFAULT]\nx = 1\n')
        err = self.one_line_error(['run', '--tempest-conf', path,
                                   '--workdir', self.workdir])
        self.assertIn('no [identity] or [auth] section', err)

    def test_unknown_seed(self):
        err = self.one_line_error(['select', '--seed', '042'])
        self.assertIn('--seed 042: no such seed', err)

    def test_select_prints_a_regex_of_the_seed_ids(self):
        code, out, err = self.run_main(['select', '--seed', '003'])
        self.assertEqual(0, code, err)
        self.assertIn('5b1f0c3e-6f1e-4a8e-9c51-0d2b7e3f9a11', out)
        self.assertNotIn('4a6c8e0b-2d3f-4b5a-9c7e-8f9a0b1c2d37', out)
