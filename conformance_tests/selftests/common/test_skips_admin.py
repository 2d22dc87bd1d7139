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

"""common/skips.py: what only an admin can do is said as "needs admin:
<call>", which the report reads as not-applicable with that call; a test
marked admin_only skips only without admin."""

import testtools

from conformance_tests.common import skips
from conformance_tests.report import applicability


class _Case(object):
    """Stands for a TestCase running ``name``."""

    def __init__(self, name):
        self._testMethodName = name

    @skips.admin_only('PUT /os-quota-sets/{project_id}?user_id={user_id} '
                      '(a per-user limit)')
    def test_marked(self):
        return 'ran'

    def test_plain(self):
        pass


class NeedsAdminTest(testtools.TestCase):

    def test_the_report_reads_the_call_as_the_reason(self):
        message = skips.needs_admin('GET /usages (placement\'s policy '
                                    'refuses it to a reader)')
        self.assertEqual(
            (applicability.ADMIN, 'needs admin: GET /usages (placement\'s '
             'policy refuses it to a reader)'),
            applicability.reason(message))

    def test_a_call_with_a_full_stop_or_semicolon_is_refused(self):
        # The report's reason would end there, half said.
        for bad in ('GET /os-hypervisors. Then more', 'a; b'):
            self.assertRaises(ValueError, skips.needs_admin, bad)
            self.assertRaises(ValueError, skips.admin_only, bad)

    def test_admin_only_skips_only_without_admin(self):
        marked = _Case('test_marked')
        self.assertEqual(
            'needs admin: PUT /os-quota-sets/{project_id}?user_id='
            '{user_id} (a per-user limit)',
            skips.admin_only_reason(marked, has_admin=False))
        self.assertIsNone(skips.admin_only_reason(marked, has_admin=True))
        self.assertIsNone(skips.admin_only_reason(_Case('test_plain'),
                                                  has_admin=False))

    def test_the_mark_leaves_the_test_as_it_is(self):
        self.assertEqual('ran', _Case('test_marked').test_marked())
        self.assertEqual('test_marked', _Case.test_marked.__name__)

    def test_partial_messages_do_not_read_as_needing_admin(self):
        # The suite's own config skips for member runs name an option to
        # set: the capability is partial, not not-applicable.
        from conformance_tests.scenario import test_quota_from_placement
        self.assertIsNone(applicability.reason(
            test_quota_from_placement.NO_UNSCHEDULED_SERVER))
