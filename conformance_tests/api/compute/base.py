"""Base class of compute API conformance tests (gabbi files)."""

from tempest import config
from tempest.lib.common import api_microversion_fixture
from tempest.lib.common.utils import test_utils
from tempest import test

from conformance_tests.common import gabbi_runner
from conformance_tests.common import skips

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

    def conf_for_gabbi(self):
        return CONF

    def gabbi_endpoint(self):
        """Compute's endpoint as Tempest's client resolves it from the
        catalog ([compute] catalog_type, endpoint_type, region)."""
        return self.server_groups_client.base_url

    def gabbi_token(self):
        return self.server_groups_client.token

    def resource_prefix(self):
        return CONF.conformance.resource_prefix

    # The soft-(anti-)affinity policies exist from 2.15; nova refuses to
    # list a project's groups below that once one of them exists (400),
    # and a 2.64 view would fail Tempest's schema under a view mutant.
    CLEANUP_MICROVERSION = '2.15'

    def cleanup_prefixed(self, prefix):
        with api_microversion_fixture.APIMicroversionFixture(
                compute_microversion=self.CLEANUP_MICROVERSION):
            groups = self.server_groups_client.list_server_groups()
        for group in groups['server_groups']:
            if group['name'].startswith(prefix):
                test_utils.call_and_ignore_notfound_exc(
                    self.server_groups_client.delete_server_group,
                    group['id'])
