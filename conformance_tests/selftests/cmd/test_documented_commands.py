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

"""Every `conformance ...` command the README and doc/*.md show parses with
the real parser, so an option renamed or removed fails here, naming the
doc and the line; the ones that need no cloud also run: `select` prints
the regex `tempest run --regex` takes (or the load-list of `tempest run
--load-list`), `report --subunit` rebuilds a report from a stream."""

import contextlib
import io
import json
import os
import re
import sys

import fixtures
import testtools

from conformance_tests.cloud import mutants
from conformance_tests.cloud import profiles
from conformance_tests.cloud import releases
from conformance_tests.cmd import main
from conformance_tests.report import guidelines
from conformance_tests.selftests.cmd import documented
from conformance_tests.selftests.cmd import test_report


def values():
    """A sensible value for each placeholder, by the option it follows
    (argparse checks choices and types; the rest only need a word)."""
    caps = guidelines.load_all()
    return {
        '--seed': '003', '--capability': guidelines.select(
            caps, ['003'], None)[0],
        '--profile': profiles.DEFAULT, '--release': releases.OLDER[0],
        '--mutant': mutants.all_mutants()[0].name,
        '--only': mutants.all_mutants()[0].name,
        '--port-base': '18700', '--computes': '3', '--parallel': '2',
        '--require': 'admin', '--tempest-conf': 'tempest.conf',
        '--subunit': 'results.subunit', '--output': 'bundle.tar.gz',
        '--target': 'a cloud', 'FILE': 'bundle.tar.gz'}


class CliffParser(object):
    """Parses a command line as `conformance` does (cmd/main.py's cliff
    App): cliff's own commands (help, complete) and global options
    (--help, --version) too, each command with the parser cliff runs."""

    def parse_args(self, argv):
        app = main.ConformanceApp(argv)
        options, rest = app.parser.parse_known_args(argv)
        if options.deferred_help or not rest:
            return options  # --help, or global options alone
        try:
            factory, name, sub_argv = app.command_manager.find_command(rest)
        except ValueError as e:
            print('conformance: error: %s' % e, file=sys.stderr)
            raise SystemExit(2)
        command = factory(app, None)
        return command.get_parser('conformance %s' % name).parse_args(
            sub_argv)


def problems(parser, commands):
    """'<doc>:<line>: `conformance ...`: <argparse's error>' of each
    command that does not parse."""
    found = []
    for command in commands:
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), \
                    contextlib.redirect_stdout(io.StringIO()):
                parser.parse_args(command.argv)
        except SystemExit as e:
            if e.code not in (0, None):  # 0: --version printed
                found.append('%r: %s' % (command, (
                    err.getvalue().strip().splitlines() or ['?'])[-1]))
    return found


def all_commands(parser, root=documented.ROOT, wanted=None):
    wanted = wanted or values()
    return [c for path in documented.doc_files(root)
            for c in documented.commands(path, wanted, parser, root)]


class DocumentedCommandsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.parser = main.build_parser()
        self.values = values()
        self.commands = all_commands(self.parser, wanted=self.values)

    def test_every_documented_command_parses(self):
        self.assertEqual([], problems(CliffParser(), self.commands))

    def test_cliff_refuses_what_the_app_does_not_know(self):
        # The control: the check through cliff can fail.
        found = problems(CliffParser(), [
            documented.Documented('x:%d' % n, ' '.join(argv), argv)
            for n, argv in enumerate((
                ['no-such-command'], ['run', '--no-such-option'],
                ['help', 'run'], ['cloud', 'up', '--help']), 1)])
        self.assertEqual(2, len(found), found)
        self.assertIn('no-such-command', found[0])
        self.assertIn('unrecognized arguments: --no-such-option', found[1])

    def test_the_readme_commands_are_found(self):
        found = {(c.where.split(':')[0], ' '.join(c.argv[:2]))
                 for c in self.commands}
        for doc, command in [
                ('README.md', 'help run'),
                ('doc/other-clouds.md', 'report --subunit'),
                ('doc/other-clouds.md', 'select --seed'),
                ('doc/other-clouds.md',
                 'verify-bundle .conformance/bundle.tar.gz'),
                ('doc/other-clouds.md', 'run --tempest-conf'),
                ('doc/embedded-cloud.md', 'cloud up')]:
            self.assertIn((doc, command), found)
        self.assertGreater(len(self.commands), 60)

    def test_a_removed_option_is_named_with_its_doc_and_line(self):
        root = self.useFixture(fixtures.TempDir()).path
        os.mkdir(os.path.join(root, 'doc'))
        with open(os.path.join(root, 'README.md'), 'w') as f:
            f.write('# x\n\n```\nconformance run --seed NNN\n'
                    'conformance report --subunit FILE --no-such X\n```\n')
        with open(os.path.join(root, 'doc', 'a.md'), 'w') as f:
            f.write('Run `conformance select\n--colour red`.\n')
        found = problems(self.parser,
                         all_commands(self.parser, root, self.values))
        self.assertEqual(2, len(found), found)
        self.assertTrue(found[0].startswith(
            'README.md:5: `conformance report --subunit FILE --no-such X`'),
            found)
        self.assertIn('unrecognized arguments: --no-such', found[0])
        self.assertTrue(found[1].startswith('doc/a.md:1: '), found)

    def documented(self, *words):
        """The documented commands whose argv starts with ``words``."""
        found = [c for c in self.commands
                 if c.argv[:len(words)] == list(words)]
        self.assertNotEqual([], found, words)
        return found

    def test_select_prints_the_regex_tempest_run_takes(self):
        caps = guidelines.load_all()
        in_seed = guidelines.test_ids(caps, guidelines.select(
            caps, ['003'], None))
        other = guidelines.test_ids(caps, guidelines.select(
            caps, ['000'], None))
        for command in self.documented('select'):
            code, out, err = test_report.run_main(command.argv)
            self.assertEqual(0, code, '%r: %s' % (command, err))
            if 'load-list' in command.argv:
                # Tempest's full names, one a line: the seed's (and, with
                # --seed, no other).
                for test_id in in_seed:
                    self.assertIn('[id-%s' % test_id, out, command)
                if '--seed' in command.argv:
                    self.assertNotIn('id-%s' % other[0], out, command)
                continue
            regex = re.compile(out.strip())
            name = 'conformance_tests.api.x.T.test_x[id-%s]'
            self.assertTrue(regex.search(name % in_seed[0]), command)
            self.assertFalse(regex.search(name % other[0]), command)

    def test_report_rebuilds_a_report_from_a_stream(self):
        root = self.useFixture(fixtures.TempDir()).path
        stream = test_report.write_stream(os.path.join(root, 'r.subunit'))
        commands = self.documented('report', '--subunit')
        for ran, command in enumerate(commands):
            workdir = os.path.join(root, str(ran))
            argv = [stream if arg == self.values['--subunit'] else arg
                    for arg in command.argv] + ['--workdir', workdir]
            code, out, err = test_report.run_main(argv)
            # The stream holds seed 003's tests: other seeds did not run.
            self.assertEqual(0 if '--seed' in argv else 1, code,
                             '%r: %s' % (command, out + err))
            with open(os.path.join(workdir, 'report.json')) as f:
                summary = json.load(f)['summary']
            self.assertEqual(['a cloud', releases.CURRENT], [
                summary['target'], summary['release']])
            self.assertTrue(os.path.exists(os.path.join(
                workdir, 'report.md')))
        self.assertGreaterEqual(len(commands), 2)

    def test_bare_report_rebuilds_the_last_runs_report(self):
        # What `conformance run` leaves: its stream and its report.
        workdir = self.useFixture(fixtures.TempDir()).path
        test_report.write_stream(os.path.join(workdir, 'results.subunit'))
        code, out, err = test_report.run_main([
            'report', '--target', 'the last run', '--workdir', workdir])
        self.assertEqual(1, code, out + err)  # only seed 003 ran
        bare = [c for c in self.documented('report') if len(c.argv) == 1]
        self.assertNotEqual([], bare)
        for command in bare:
            # Always with the test's workdir: never a real run's report.
            code, out, err = test_report.run_main(
                command.argv + ['--workdir', workdir])
            self.assertEqual(1, code, '%r: %s' % (command, out + err))
            self.assertIn('release %s' % releases.CURRENT, out)
            with open(os.path.join(workdir, 'report.json')) as f:
                self.assertEqual('the last run',
                                 json.load(f)['summary']['target'])
