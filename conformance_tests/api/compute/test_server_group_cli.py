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

"""Seed 000 through a real client: `openstack server group --rule`.

The spec names python-openstackclient's new --rule option. This drives
the installed `openstack` command at compute microversion 2.64 and parses
its JSON output. Credentials reach it through OS_* environment variables,
never through its command line, so no failure message can show them.
"""

from tempest import config
from tempest.lib.common import api_version_utils
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest import test

from conformance_tests.common import cli
from conformance_tests.common import microversion
from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.services.compute.v2 import server_groups

CONF = config.CONF
MICROVERSION = '2.64'
RULE = ('openstack server group create --rule max_server_per_host=2 at '
        'compute 2.64 creates an anti-affinity group with that rule')


class ServerGroupCLITest(api_version_utils.BaseMicroversionTest,
                         test.BaseTestCase):
    credentials = ['primary']
    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.require_service(cls, CONF, 'nova',
                              'the compute conformance tests')
        skips.skip_if(cls, microversion.class_skip_reason(cls, CONF))
        skips.skip_if(cls, cli.skip_reason(CONF))

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.groups = cls.os_primary.server_groups_client

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.setup_api_microversion_fixture(
            compute_microversion=microversion.request_microversion(
                cls, CONF))

    def setUp(self):
        super().setUp()
        # openstackclient takes OS_COMPUTE_API_VERSION as the default of
        # --os-compute-api-version.
        self.cli = cli.OpenStack(
            CONF, self.os_primary.credentials, RULE,
            region=CONF.compute.region or CONF.identity.region,
            interface=CONF.compute.endpoint_type,
            env={'OS_COMPUTE_API_VERSION': MICROVERSION})

    @decorators.idempotent_id('2c4e6a8b-0d1f-4a3b-9c5d-7e8f9a0b1c26')
    @decorators.attr(type=['slow'])
    def test_rule_max_server_per_host_through_openstackclient(self):
        name = data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name='cli-sg')
        created = self.cli.json('server', 'group', 'create', '--policy',
                                'anti-affinity', '--rule',
                                'max_server_per_host=2', name)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, created.get('id'))
        expected = {'name': name, 'policy': 'anti-affinity',
                    'rules': {'max_server_per_host': 2}, 'members': []}
        self.assertEqual(expected, {k: created.get(k) for k in expected},
                         '%s: create output' % RULE)

        shown = self.cli.json('server', 'group', 'show', created['id'])
        self.assertEqual(expected, {k: shown.get(k) for k in expected},
                         '%s: show output' % RULE)

        listed = [g for g in self.cli.json('server', 'group', 'list')
                  if g.get('ID') == created['id']]
        self.assertEqual([{'ID': created['id'], 'Name': name,
                           'Policy': 'anti-affinity'}], listed,
                         '%s: list output' % RULE)

        # The API agrees with what the client printed.
        api = outcomes.must_succeed(self, RULE, self.groups.show_server_group,
                                    created['id'])['server_group']
        self.assertEqual('anti-affinity', api['policy'])

        self.cli.run('server', 'group', 'delete', created['id'])
        self.assertIsNone(
            server_groups.still_there(self.groups, created['id']),
            '%s: the group is gone after `openstack server group delete`'
            % RULE)
