"""common/microversion.py: parsing and config-driven skip reasons."""

import testtools

from conformance_tests.common import microversion


class ParseTest(testtools.TestCase):

    def test_parse_major_minor(self):
        self.assertEqual((1, 32), microversion.parse('1.32'))

    def test_parse_strips_whitespace(self):
        self.assertEqual((1, 2), microversion.parse(' 1.2 '))

    def test_parse_compares_numerically_not_lexically(self):
        self.assertLess(microversion.parse('1.9'),
                        microversion.parse('1.10'))

    def test_parse_latest_is_above_any_version(self):
        latest = microversion.parse('latest')
        self.assertEqual((float('inf'), float('inf')), latest)
        self.assertGreater(latest, microversion.parse('99.99'))

    def test_parse_latest_is_case_insensitive(self):
        self.assertEqual(microversion.parse('latest'),
                         microversion.parse('LATEST'))

    def test_parse_none_and_empty_are_unset(self):
        self.assertIsNone(microversion.parse(None))
        self.assertIsNone(microversion.parse(''))

    def test_parse_bad_input_raises_value_error(self):
        for bad in ('1', '1.x', 'a.b', '1.2.3', 'one', '1.'):
            e = self.assertRaises(ValueError, microversion.parse, bad)
            self.assertIn('X.Y', str(e))


class SkipReasonTest(testtools.TestCase):

    def test_inside_range_is_none(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', '1.39'))

    def test_at_both_bounds_is_none(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.32', '1.32', '1.32'))

    def test_max_defaults_to_min(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', None, '1.0', '1.32'))
        self.assertIsNotNone(microversion.skip_reason(
            'placement', '1.32', None, '1.0', '1.31'))

    def test_latest_config_max_is_open(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', 'latest'))

    def test_below_configured_min_names_min_option(self):
        reason = microversion.skip_reason(
            'placement', '1.10', '1.10', '1.20', '1.39')
        self.assertIsNotNone(reason)
        self.assertIn('[placement] min_microversion', reason)
        self.assertIn('lower min_microversion to 1.10', reason)

    def test_above_configured_max_names_max_option(self):
        reason = microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', '1.32')
        self.assertIsNotNone(reason)
        self.assertIn('[placement] max_microversion', reason)
        self.assertIn('raise max_microversion to 1.33', reason)

    def test_unset_config_bounds_is_none(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', None, None))
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', '', ''))

    def test_only_max_set_still_checks_max(self):
        self.assertIsNotNone(microversion.skip_reason(
            'placement', '1.32', '1.33', None, '1.30'))
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', None, '1.39'))

    def test_only_min_set_still_checks_min(self):
        self.assertIsNotNone(microversion.skip_reason(
            'placement', '1.10', '1.10', '1.20', None))
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', None))

    def test_bad_config_value_raises(self):
        self.assertRaises(ValueError, microversion.skip_reason,
                          'placement', '1.32', '1.33', '1.0', 'one')
