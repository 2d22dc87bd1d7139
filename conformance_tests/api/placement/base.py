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

"""Base class of placement API conformance tests (gabbi files)."""

from tempest.common import credentials_factory
from tempest import config
from tempest import test

from conformance_tests.common import gabbi_runner
from conformance_tests.common import skips

CONF = config.CONF


# What a project member cannot do here: every request of the files is
# placement's admin API by its default policy (admin or service role),
# and the topologies they query are made through it.
NEEDS_ADMIN = ('GET /resource_providers and GET /allocation_candidates, '
               'and making the providers they query (placement\'s default '
               'policy: admin or service role)')


class PlacementGabbiBase(gabbi_runner.GabbiFileRunner, test.BaseTestCase):
    """Placement's API needs the admin (or service) role by default."""

    credentials = ['admin']
    gabbi_service = 'placement'

    @classmethod
    def skip_checks(cls):
        # Before Tempest's own check, so a member-only run says which
        # calls need admin, not only that it has none.
        skips.require_service(cls, CONF, 'placement',
                              'the placement conformance tests')
        if not credentials_factory.is_admin_available(
                identity_version=cls.get_identity_version()):
            raise cls.skipException(skips.needs_admin(NEEDS_ADMIN))
        super().skip_checks()

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls._topology_client = (
            cls.os_admin.conformance_placement_v1.TopologyClient())

    # GabbiFileRunner hooks
    def conf_for_gabbi(self):
        return CONF

    def gabbi_endpoint(self):
        """Placement's endpoint as Tempest's client resolves it from the
        catalog ([placement] catalog_type, endpoint_type, region)."""
        return self._topology_client.base_url

    def gabbi_token(self):
        return self._topology_client.token

    def gabbi_caller(self):
        return gabbi_runner.caller_of(self._topology_client)

    def topology_client(self):
        return self._topology_client

    def resource_prefix(self):
        return CONF.conformance.resource_prefix
