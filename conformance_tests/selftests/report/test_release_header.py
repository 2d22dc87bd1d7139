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

"""Every report names the series whose expectations judged it: an older
one (`--release`) and today's alike, in report.json, report.md and the
table the run prints."""

import argparse
import json
import os

import fixtures
import testtools

from conformance_tests.cloud import packages
from conformance_tests.cloud import releases
from conformance_tests.cloud import target as cloud_target
from conformance_tests.cmd import mutants as mutants_cmd
from conformance_tests.report import build


def _summary(release=None):
    return build.summarise([], {}, 'embedded cloud', False, release=release)


class ReleaseHeaderTest(testtools.TestCase):

    def test_todays_series_is_named_too(self):
        summary = _summary()
        self.assertEqual(releases.CURRENT, summary['release'])
        self.assertIn("\nRelease: %s (today's series)\n" % releases.CURRENT,
                      build.markdown([], summary))
        self.assertIn("release %s (today's series): 0 capabilities" %
                      releases.CURRENT, build.table([], summary))

    def test_an_older_series(self):
        summary = _summary('2024.1')
        self.assertEqual('2024.1', summary['release'])
        self.assertIn('\nRelease: 2024.1\n', build.markdown([], summary))
        self.assertIn('release 2024.1: 0 capabilities',
                      build.table([], summary))


class EmbeddedTargetTest(testtools.TestCase):

    def release(self, value):
        self.useFixture(fixtures.EnvironmentVariable(
            packages.RELEASE_VARIABLE, value))

    def test_current_series_is_unchanged(self):
        self.release(None)
        target = cloud_target.describe('default')
        self.assertTrue(target.startswith('embedded cloud, profile default ('))
        self.assertIn('nova %s' % packages.pins()['nova'], target)
        self.assertIsNone(cloud_target.older_release())

    def test_older_series_named_with_its_versions(self):
        self.release('2024.1')
        target = cloud_target.describe('default')
        self.assertTrue(target.startswith(
            'embedded cloud, release 2024.1, profile default ('), target)
        self.assertIn('nova 29.4.0', target)
        self.assertIn('tempest 46.0.0', target)
        self.assertEqual('2024.1', cloud_target.older_release())

    def test_unknown_series_is_one_line(self):
        self.release('1999.1')
        self.assertRaises(cloud_target.TargetError, cloud_target.describe,
                          'default')


class MutantsJsonTest(testtools.TestCase):
    """mutants.json, the mutant run's report, names its series too."""

    def test_todays_series(self):
        self.useFixture(fixtures.EnvironmentVariable(
            packages.RELEASE_VARIABLE, None))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.mutants._run_mutants', lambda *a, **k: []))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.common.ui.say', lambda message: None))
        workdir = self.useFixture(fixtures.TempDir()).path
        args = argparse.Namespace(
            list=False, only=None, seed=['003'], capability=None,
            parallel=1, workdir=workdir, profile='default', matrix=False)
        self.assertEqual(0, mutants_cmd.cmd_mutants(args))
        with open(os.path.join(workdir, 'mutants.json')) as f:
            self.assertEqual(releases.CURRENT,
                             json.load(f)['summary']['release'])
