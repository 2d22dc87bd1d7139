"""The report of a run on an older series (`--release`) names it."""

import fixtures
import testtools

from conformance_tests.cloud import packages
from conformance_tests.cmd import run
from conformance_tests.report import build


def _summary(**extra):
    return dict(build.summarise([], {}, 'embedded cloud', False), **extra)


class ReleaseHeaderTest(testtools.TestCase):

    def test_no_release_line_on_the_current_series(self):
        text = build.markdown([], _summary())
        self.assertNotIn('Release:', text)

    def test_release_line(self):
        text = build.markdown([], _summary(release='2024.1'))
        self.assertIn('\nRelease: 2024.1\n', text)


class EmbeddedTargetTest(testtools.TestCase):

    def release(self, value):
        self.useFixture(fixtures.EnvironmentVariable(
            packages.RELEASE_VARIABLE, value))

    def test_current_series_is_unchanged(self):
        self.release(None)
        target = run._embedded_target('default')
        self.assertTrue(target.startswith('embedded cloud, profile default ('))
        self.assertIn('nova %s' % packages.pins()['nova'], target)
        self.assertIsNone(run._other_release())

    def test_older_series_named_with_its_versions(self):
        self.release('2024.1')
        target = run._embedded_target('default')
        self.assertTrue(target.startswith(
            'embedded cloud, release 2024.1, profile default ('), target)
        self.assertIn('nova 29.4.0', target)
        self.assertIn('tempest 46.0.0', target)
        self.assertEqual('2024.1', run._other_release())

    def test_unknown_series_is_a_command_error(self):
        self.release('1999.1')
        self.assertRaises(run.CommandError, run._embedded_target, 'default')
