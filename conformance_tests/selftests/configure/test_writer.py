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

"""configure/writer.py and tempestconf.py: the user's values win over
python-tempestconf's and the suite's, the file is 0600 and says where
the suite's values came from; python-tempestconf is called with its own
options and its failure is one line naming its log."""

import configparser
import os
import stat
import sys

import fixtures
import testtools

from conformance_tests.configure import discover
from conformance_tests.configure import tempestconf
from conformance_tests.configure import writer

RAW = """[compute]
image_ref = from-tempestconf
[conformance]
anti_affinity_zone = from-tempestconf
"""


class TestOverrides(testtools.TestCase):

    def test_pairs(self):
        self.assertEqual(
            [('conformance', 'allow_disruption', 'true'),
             ('DEFAULT', 'log_dir', '/x')],
            writer.parse_overrides(['conformance.allow_disruption', 'true',
                                    'DEFAULT.log_dir', '/x']))

    def test_bad_input_is_one_line_naming_it(self):
        for words, named in ((['conformance.allow_disruption'],
                              'conformance.allow_disruption has no value'),
                             (['allow_disruption', 'true'],
                              'allow_disruption: an override is '
                              'section.option'),
                             (['a.b.c', 'v'], 'a.b.c: an override')):
            e = self.assertRaises(ValueError, writer.parse_overrides, words)
            self.assertIn(named, str(e))
            self.assertNotIn('\n', str(e))


class TestMergeAndWrite(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.raw = os.path.join(self.dir, 'raw.conf')
        with open(self.raw, 'w') as f:
            f.write(RAW)

    def test_the_user_wins_then_the_suite_then_tempestconf(self):
        findings = [
            discover.Finding('conformance', 'anti_affinity_zone', 'found',
                             'why'),
            discover.Finding('conformance', 'preemptible_hosts', 'a,b',
                             'enrolled'),
            discover.Finding('service_available', 'blazar', 'true', 'why')]
        overrides = [('conformance', 'preemptible_hosts', 'mine'),
                     ('conformance', 'allow_disruption', 'true')]
        parser = writer.merge(self.raw, findings, overrides)
        self.assertEqual('found', parser.get('conformance',
                                             'anti_affinity_zone'))
        self.assertEqual('mine', parser.get('conformance',
                                            'preemptible_hosts'))
        self.assertEqual('true', parser.get('conformance',
                                            'allow_disruption'))
        self.assertEqual('true', parser.get('service_available', 'blazar'))
        self.assertEqual('from-tempestconf', parser.get('compute',
                                                        'image_ref'))

        comment = writer.header(*writer.not_given(
            findings, [('conformance', 'cell_down_name', 'no API'),
                       ('conformance', 'allow_disruption', 'given')],
            overrides))
        out = os.path.join(self.dir, 'tempest.conf')
        writer.write(out, parser, comment)
        self.assertEqual(0o600, stat.S_IMODE(os.stat(out).st_mode))
        with open(out) as f:
            text = f.read()
        self.assertIn('#   [conformance] anti_affinity_zone = found: why',
                      text)
        # what the user gave is neither "found" nor "left to set"
        self.assertNotIn('preemptible_hosts = a,b', text)
        self.assertIn('#   [conformance] cell_down_name: no API', text)
        self.assertNotIn('allow_disruption: given', text)
        back = configparser.ConfigParser(interpolation=None)
        back.read(out)
        self.assertEqual('mine', back.get('conformance',
                                          'preemptible_hosts'))


class TestTempestconf(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def test_argv_passes_its_own_options_and_the_pairs(self):
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.configure.tempestconf.command',
            lambda: 'discover-tempest-config'))
        self.assertEqual(
            ['discover-tempest-config', '--out', 'o', '--os-cloud', 'c',
             '--create', '--non-admin', '--image', 'i.img',
             'compute.image_ref', 'x'],
            tempestconf.argv('o', 'c', True, 'i.img', True,
                             [('compute', 'image_ref', 'x')]))

    def test_a_failure_names_the_last_error_and_the_log(self):
        script = ('import sys; print("INFO fine"); '
                  'print("CRITICAL tempest Unhandled error: URLError: no '
                  'route"); print("more"); sys.exit(3)')
        e = self.assertRaises(tempestconf.TempestconfError, tempestconf.run,
                              [sys.executable, '-c', script], self.dir)
        log = os.path.join(self.dir, 'tempestconf.log')
        self.assertEqual(
            'discover-tempest-config failed (exit 3): CRITICAL tempest '
            'Unhandled error: URLError: no route; its log: %s' % log, str(e))
        self.assertEqual(0o600, stat.S_IMODE(os.stat(log).st_mode))

    def test_not_installed_says_what_to_install(self):
        self.useFixture(fixtures.MonkeyPatch('sys.executable',
                                             os.path.join(self.dir, 'py')))
        self.useFixture(fixtures.EnvironmentVariable('PATH', self.dir))
        e = self.assertRaises(tempestconf.TempestconfError,
                              tempestconf.command)
        self.assertEqual(tempestconf.INSTALL_HINT, str(e))
