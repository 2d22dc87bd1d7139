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

"""common/microversion.py: Tempest's skip rule, with messages and errors
that say what to set."""

import types

import testtools

from conformance_tests.common import microversion


def conf(compute_min, compute_max):
    return types.SimpleNamespace(compute=types.SimpleNamespace(
        min_microversion=compute_min, max_microversion=compute_max))


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

    def test_compares_numerically_not_lexically(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.10', None, '1.9', '1.10'))
        self.assertIsNotNone(microversion.skip_reason(
            'placement', '1.9', None, '1.10', '1.39'))

    def test_latest_config_max_is_open(self):
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', 'latest'))
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', 'LATEST'))

    def test_latest_test_max_checks_only_the_min(self):
        self.assertIsNone(microversion.skip_reason(
            'compute', '2.64', 'latest', '2.1', '2.64'))

    def test_both_ends_of_a_boundary_test_must_be_configured(self):
        # Tempest's overlap rule would run 2.68-2.69 on 2.69-latest;
        # the test sends 2.68 too.
        reason = microversion.skip_reason(
            'compute', '2.68', '2.69', '2.69', 'latest')
        self.assertIn('lower min_microversion to 2.68', reason)

    def test_below_configured_min_names_min_option(self):
        reason = microversion.skip_reason(
            'placement', '1.10', '1.10', '1.20', '1.39')
        self.assertIn('[placement] min_microversion', reason)
        self.assertIn('lower min_microversion to 1.10', reason)

    def test_above_configured_max_names_max_option(self):
        reason = microversion.skip_reason(
            'placement', '1.32', '1.33', '1.0', '1.32')
        self.assertIn('[placement] max_microversion', reason)
        self.assertIn('raise max_microversion to 1.33', reason)

    def test_unset_config_offers_no_microversion(self):
        # Tempest's meaning: without max_microversion nothing beyond the
        # base version is tested.
        for unset in (None, ''):
            reason = microversion.skip_reason(
                'placement', '1.32', '1.33', unset, unset)
            self.assertIn('[placement] max_microversion is not set', reason)
            self.assertIn('set it to 1.33 or later, or latest', reason)

    def test_only_max_set_checks_max(self):
        self.assertIsNotNone(microversion.skip_reason(
            'placement', '1.32', '1.33', None, '1.30'))
        self.assertIsNone(microversion.skip_reason(
            'placement', '1.32', '1.33', None, '1.39'))

    def test_test_without_microversion_always_runs(self):
        self.assertIsNone(microversion.skip_reason(
            'compute', None, None, None, None))
        self.assertIsNone(microversion.skip_reason(
            'compute', None, 'latest', '2.1', '2.10'))

    def test_bad_config_value_is_a_one_line_error(self):
        e = self.assertRaises(ValueError, microversion.skip_reason,
                              'placement', '1.32', '1.33', '1.0', 'one')
        self.assertEqual("[placement] max_microversion is 'one', not a "
                         "microversion of the form X.Y (or latest)", str(e))
        for bad in ('1', '1.x', '1.2.3', '1.'):
            self.assertRaises(microversion.MicroversionConfigError,
                              microversion.skip_reason,
                              'compute', '2.64', None, bad, 'latest')

    def test_min_without_max_is_an_error(self):
        e = self.assertRaises(ValueError, microversion.skip_reason,
                              'placement', '1.10', '1.10', '1.20', None)
        self.assertIn('set max_microversion', str(e))

    def test_min_above_max_is_an_error(self):
        e = self.assertRaises(ValueError, microversion.skip_reason,
                              'compute', '2.64', None, '2.70', '2.60')
        self.assertIn('[compute] min_microversion 2.70 is above', str(e))


class ClassAttributesTest(testtools.TestCase):
    """Test classes declare Tempest's min/max_microversion attributes."""

    def make_class(self, min_version, max_version):
        return type('T', (object,), {'min_microversion': min_version,
                                     'max_microversion': max_version})

    def test_class_range_inside_config_runs(self):
        cls = self.make_class('2.64', '2.64')
        self.assertIsNone(microversion.class_skip_reason(
            cls, conf('2.1', 'latest')))

    def test_class_range_outside_config_names_compute_option(self):
        cls = self.make_class('2.68', '2.69')
        reason = microversion.class_skip_reason(cls, conf('2.1', '2.68'))
        self.assertIn('raise max_microversion to 2.69', reason)
        self.assertIn('[compute]', reason)

    def test_request_microversion_is_the_class_min(self):
        cls = self.make_class('2.64', '2.64')
        self.assertEqual('2.64', microversion.request_microversion(
            cls, conf('2.1', 'latest')))
        self.assertEqual('2.64', microversion.request_microversion(
            cls, conf(None, 'latest')))

    def test_request_microversion_rises_to_the_configured_min(self):
        # Tempest's select_request_microversion, for a class whose range
        # reaches above the configured minimum.
        cls = self.make_class('2.60', 'latest')
        self.assertEqual('2.64', microversion.request_microversion(
            cls, conf('2.64', 'latest')))
