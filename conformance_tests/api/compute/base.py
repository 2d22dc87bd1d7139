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

"""Base class of compute API conformance tests (gabbi files)."""

from tempest import config
from tempest import test

from conformance_tests.common import gabbi_runner
from conformance_tests.common import skips
from conformance_tests.services.compute.v2 import server_groups

CONF = config.CONF


class ComputeGabbiBase(gabbi_runner.GabbiFileRunner, test.BaseTestCase):
    """Server groups are a project user's API: no admin needed.

    Each file declares the microversions it sends and skips outside the
    configured [compute] range (gabbi_runner); the class needs only nova.
    """

    credentials = ['primary']
    gabbi_service = 'compute'

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.require_service(cls, CONF, 'nova',
                              'the compute conformance tests')

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.server_groups_client = cls.os_primary.server_groups_client
        cls.raw_compute_client = (
            cls.os_primary.conformance_compute_v2.RawComputeClient())

    def conf_for_gabbi(self):
        return CONF

    def gabbi_endpoint(self):
        """Compute's endpoint as Tempest's client resolves it from the
        catalog ([compute] catalog_type, endpoint_type, region)."""
        return self.server_groups_client.base_url

    def gabbi_token(self):
        return self.server_groups_client.token

    def gabbi_caller(self):
        return gabbi_runner.caller_of(self.server_groups_client)

    def resource_prefix(self):
        return CONF.conformance.resource_prefix

    def cleanup_prefixed(self, prefix):
        server_groups.delete_matching(
            self.raw_compute_client, self.server_groups_client,
            lambda name: name.startswith(prefix))
