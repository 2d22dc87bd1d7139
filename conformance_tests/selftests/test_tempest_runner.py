"""cmd/tempest_runner.py: selection and discovery, without Tempest runs."""

import os
import re

import fixtures
import testtools

from conformance_tests.cmd import tempest_runner

A = '5b1f0c3e-6f1e-4a8e-9c51-0d2b7e3f9a11'
B = '0c7e2d9a-3b4f-4c61-8e2a-6f5d1a9b8c22'


class SelectionTest(testtools.TestCase):

    def test_regex_selects_exactly_the_ids(self):
        regex = re.compile(tempest_runner.selection_regex([A]))
        self.assertTrue(regex.search(
            'conformance_tests.api.placement.test_x.T.test_y[id-%s]' % A))
        self.assertTrue(regex.search(
            'conformance_tests.scenario.t.T.test_y[id-%s,slow]' % A))
        self.assertFalse(regex.search(
            'conformance_tests.api.placement.test_x.T.test_y[id-%s]' % B))
        self.assertFalse(regex.search('tempest.api.x.T.test[id-%s]' % A))

    def test_empty_selection_is_refused(self):
        self.assertRaises(tempest_runner.RunError,
                          tempest_runner.selection_regex, [])


class DiscoveryTest(testtools.TestCase):

    def test_stestr_conf_points_at_this_interpreters_tempest(self):
        import tempest
        workspace = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(workspace, '.stestr.conf'), 'w') as f:
            f.write('[DEFAULT]\ntest_path=/elsewhere/.tox/other/tempest/'
                    'test_discover\ntop_dir=/elsewhere\n')
        tempest_runner.point_discovery_here(workspace)
        with open(os.path.join(workspace, '.stestr.conf')) as f:
            text = f.read()
        self.assertNotIn('/elsewhere', text)
        self.assertIn(os.path.dirname(os.path.dirname(tempest.__file__)),
                      text)

    def test_error_line_is_the_last_line_never_a_question_mark(self):
        self.assertEqual('ImportError: module incorrectly imported',
                         tempest_runner._last_error_line(
                             'Traceback...\n  x\nImportError: module '
                             'incorrectly imported\n\n'))
        self.assertNotEqual('?', tempest_runner._last_error_line(''))

    def test_discovery_error_names_the_module_and_exception(self):
        text = ('--- import errors ---\nFailed to import test module: '
                'conformance_tests.api.x\nTraceback (most recent call '
                'last):\n  File "y"\nImportError: module incorrectly '
                'imported\n\n====\nThe above traceback was encountered '
                'during test discovery.\n')
        line = tempest_runner._last_error_line(text)
        self.assertIn('conformance_tests.api.x', line)
        self.assertIn('ImportError: module incorrectly imported', line)


class ListingTest(testtools.TestCase):

    def test_tempest_lists_once_and_each_regex_filters_the_list(self):
        asked = []
        listed = ['conformance_tests.api.a.T.test_a[id-%s]' % A,
                  'conformance_tests.api.b.T.test_b[id-%s,smoke]' % B]

        def fake_list(workspace, regex=tempest_runner.TEST_REGEX):
            asked.append((workspace, regex))
            return listed

        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.tempest_runner.list_tests', fake_list))
        listing = tempest_runner.Listing()
        self.assertEqual(listed[1:], listing.select(
            'ws', tempest_runner.selection_regex([B])))
        self.assertEqual(listed, listing.select(
            'ws', tempest_runner.selection_regex([A, B])))
        self.assertEqual([], listing.select(
            'ws', tempest_runner.selection_regex(['0' * 8])))
        self.assertEqual([('ws', tempest_runner.TEST_REGEX)], asked)
