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

"""The unified-limits profile: nova counts quota with keystone's limits,
and a cloud without them makes the disk quota not-applicable."""

import testtools

from conformance_tests.cloud import profiles
from conformance_tests.cloud.services import nova
from conformance_tests.common import skips
from conformance_tests.report import applicability
from conformance_tests.selftests.cloud.test_vendor_like import launch_ctx


class UnifiedLimitsProfileTest(testtools.TestCase):

    def test_nova_counts_with_keystone_s_limits(self):
        flags = nova.nova_config(launch_ctx('unified-limits'))['flags']
        self.assertEqual(nova.UNIFIED_LIMITS_DRIVER,
                         flags['quota']['driver'])
        limit = flags['oslo_limit']
        # nova's harness sets a placeholder endpoint_id: it must be unset
        # for oslo.limit to find nova's endpoint by type and region.
        self.assertIsNone(limit['endpoint_id'])
        self.assertEqual(('compute', 'RegionOne', 'nova'), (
            limit['endpoint_service_type'], limit['endpoint_region_name'],
            limit['username']))

    def test_other_profiles_keep_legacy_quota(self):
        for profile in (profiles.DEFAULT, 'vendor-like', 'spec-reference'):
            flags = nova.nova_config(launch_ctx(profile))['flags']
            self.assertNotIn('driver', flags['quota'], profile)
            self.assertNotIn('oslo_limit', flags, profile)

    def test_every_limit_nova_checks_is_registered(self):
        # nova refuses a boot when a resource it checks has no registered
        # limit; disk is the one the profile exists for.
        for name in ('servers', 'class:VCPU', 'class:MEMORY_MB',
                     'class:DISK_GB', 'server_metadata_items',
                     'server_key_pairs', 'server_groups',
                     'server_group_members'):
            self.assertGreater(nova.REGISTERED_LIMITS[name], 0, name)

    def test_a_cloud_without_unified_limits_is_a_reason(self):
        kind, reason = applicability.reason(skips.NO_UNIFIED_LIMITS)
        self.assertEqual(applicability.QUOTA, kind)
        self.assertIn('unified_limits is false', reason)
        self.assertIsNone(applicability.reason(
            'needs a cloud whose nova counts quota with legacy quota'))
