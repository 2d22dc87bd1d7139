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

"""`conformance preflight` (cmd/preflight.py): its parser, run_preflight
for `conformance run --tempest-conf`, and what a person sees: a short
summary, or one error line with exit 2, never a traceback or a secret."""

import io
import json
import os

import fixtures
import testtools

from conformance_tests.cloud import releases
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import main
from conformance_tests.cmd import options
from conformance_tests.cmd import preflight as cmd
from conformance_tests.selftests import preflight as fake


class CommandTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path
        self.workdir = os.path.join(self.folder, 'work')
        self.cloud = self.useFixture(fake.FakeCloud())
        self.stdout = io.StringIO()
        self.stderr = io.StringIO()
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', self.stdout))
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', self.stderr))

    def conformance(self, sections=None, argv=()):
        conf = self.cloud.write_conf(self.folder, sections)
        return main.main(['preflight', '--tempest-conf', conf,
                          '--workdir', self.workdir] + list(argv))

    def output(self):
        return self.stdout.getvalue() + self.stderr.getvalue()

    def findings_text(self):
        with open(os.path.join(self.workdir, 'preflight.json')) as f:
            return f.read()

    def assertNoSecret(self, text):
        for secret in self.cloud.secrets():
            self.assertNotIn(secret, text)

    def test_parser(self):
        args = main.build_parser().parse_args(
            ['preflight', '--tempest-conf', 'x.conf'])
        self.assertEqual('x.conf', args.tempest_conf)
        self.assertEqual(options.DEFAULT_WORKDIR, args.workdir)
        self.assertIs(cmd.cmd_preflight, args.func)

    def test_good_cloud(self):
        self.assertEqual(0, self.conformance())
        out = self.stdout.getvalue()
        self.assertIn('preflight: compute      %s  v2.1, microversions '
                      '2.1-2.79' % self.cloud.services['compute'].url, out)
        self.assertIn('preflight: admin admin (project admin): admin', out)
        # The fake nova offers 2.79: older than every series judged.
        self.assertIn("preflight: series: nova's maximum microversion 2.79: "
                      "older than zed; judged by "
                      "%s's expectations" % releases.CURRENT, out)
        self.assertIn("preflight: WARNING: nova's maximum microversion 2.79 "
                      "is older than %s" % releases.SERIES[0], out)
        self.assertIn('preflight: findings in %s' % os.path.join(
            self.workdir, 'preflight.json'), out)
        self.assertEqual('', self.stderr.getvalue())
        self.assertLess(len(out.splitlines()), 15)
        self.assertTrue(json.loads(self.findings_text())['ok'])
        self.assertNoSecret(self.output())
        self.assertNoSecret(self.findings_text())

    def test_failure_is_one_line_and_exit_2(self):
        code = self.conformance({'auth': {
            'admin_password': 'Wr0ng-S3cret-pw'}})
        self.assertEqual(2, code)
        self.assertEqual('conformance: error: [auth] admin_password: '
                         'identity refused the credentials of admin (401)\n',
                         self.stderr.getvalue())
        self.assertEqual('', self.stdout.getvalue())
        self.assertNotIn('Traceback', self.output())
        self.assertNotIn('Wr0ng-S3cret-pw', self.output())
        # The findings so far are written, with the error and no secret.
        findings = self.findings_text()
        self.assertIn('identity refused the credentials', findings)
        self.assertNotIn('Wr0ng-S3cret-pw', findings)
        self.assertNoSecret(findings)

    def test_unreachable_identity(self):
        uri = 'http://127.0.0.1:%d/v3' % fake.closed_port()
        self.assertEqual(2, self.conformance({'identity': {'uri_v3': uri}}))
        self.assertEqual('conformance: error: [identity] uri_v3 %s: '
                         'connection refused\n' % uri,
                         self.stderr.getvalue())

    def test_release_judges(self):
        self.assertEqual(0, self.conformance(argv=['--release', '2024.1']))
        self.assertIn("judged by 2024.1's expectations",
                      self.stdout.getvalue())
        self.assertEqual('2024.1', json.loads(self.findings_text())[
            'series']['judged_by'])

    def test_run_preflight(self):
        said = []
        conf = self.cloud.write_conf(self.folder)
        findings = cmd.run_preflight(conf, self.workdir, say=said.append)
        self.assertTrue(findings['ok'])
        self.assertTrue(all(line.startswith('preflight: ')
                            for line in said))
        self.assertNoSecret('\n'.join(said))
        conf = self.cloud.write_conf(self.folder, {'compute': {
            'max_microversion': '2.95'}})
        e = self.assertRaises(CommandError, cmd.run_preflight,
                              conf, self.workdir, say=said.append)
        self.assertEqual('[compute] max_microversion 2.95: the cloud offers '
                         '2.1-2.79', str(e))

    def test_unwritable_workdir(self):
        blocker = os.path.join(self.folder, 'file')
        open(blocker, 'w').close()
        conf = self.cloud.write_conf(self.folder)
        e = self.assertRaises(CommandError, cmd.run_preflight,
                              conf, os.path.join(blocker, 'work'),
                              say=lambda line: None)
        self.assertIn('cannot write preflight.json', str(e))

    def test_unwritable_workdir_does_not_hide_the_cloud_error(self):
        blocker = os.path.join(self.folder, 'file')
        open(blocker, 'w').close()
        conf = self.cloud.write_conf(self.folder, {'auth': {
            'admin_password': 'Wr0ng-S3cret-pw'}})
        e = self.assertRaises(CommandError, cmd.run_preflight,
                              conf, os.path.join(blocker, 'work'),
                              say=lambda line: None)
        self.assertIn('identity refused the credentials of admin', str(e))
