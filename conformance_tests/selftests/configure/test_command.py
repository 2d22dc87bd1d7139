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

"""`conformance config`'s bad input and unreachable cloud: one line on
stderr, exit 2, no traceback and no file written."""

import contextlib
import io
import os
import socket

import fixtures
import testtools

from conformance_tests.cmd import main


def _closed_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class TestConfigCommand(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.out = os.path.join(self.dir, 'tempest.conf')
        for name in [n for n in os.environ if n.startswith('OS_')]:
            self.useFixture(fixtures.EnvironmentVariable(name))

    def run_main(self, *words):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main.main(['config', '--workdir', self.dir,
                              '--out', self.out] + list(words))
        return code, err.getvalue()

    def assertOneLineError(self, code, err, *named):
        self.assertEqual(2, code, err)
        lines = err.splitlines()
        self.assertEqual(1, len(lines), err)
        self.assertTrue(lines[0].startswith('conformance: error:'), err)
        for text in named:
            self.assertIn(text, lines[0])
        self.assertFalse(os.path.exists(self.out))

    def test_an_override_without_a_value(self):
        code, err = self.run_main('conformance.allow_disruption')
        self.assertOneLineError(code, err, 'conformance.allow_disruption '
                                           'has no value')

    def test_an_unreachable_cloud(self):
        env = {'OS_AUTH_URL': 'http://127.0.0.1:%d/v3' % _closed_port(),
               'OS_USERNAME': 'admin', 'OS_PASSWORD': 'not-printed',
               'OS_PROJECT_NAME': 'admin', 'OS_USER_DOMAIN_NAME': 'Default',
               'OS_PROJECT_DOMAIN_NAME': 'Default'}
        for name, value in env.items():
            self.useFixture(fixtures.EnvironmentVariable(name, value))
        code, err = self.run_main()
        self.assertOneLineError(code, err, 'cannot list glance\'s images')
        self.assertNotIn('not-printed', err)
