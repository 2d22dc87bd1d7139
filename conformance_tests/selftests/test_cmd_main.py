"""cmd/main.py: one-line errors and the mutant list, no cloud started."""

import contextlib
import io
import os

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

    def test_missing_subcommand_is_a_usage_error(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            e = self.assertRaises(SystemExit, main.main, [])
        self.assertEqual(2, e.code)
