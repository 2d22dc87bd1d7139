"""Base class of placement API conformance tests (gabbi files)."""

from tempest import config
from tempest import test

from conformance_tests.common import gabbi_runner
from conformance_tests.common import skips

CONF = config.CONF


class PlacementGabbiBase(gabbi_runner.GabbiFileRunner, test.BaseTestCase):
    """Placement's API needs the admin (or service) role by default."""

    credentials = ['admin']
    gabbi_service = 'placement'

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.require_service(cls, CONF, 'placement',
                              'the placement conformance tests')

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

    def topology_client(self):
        return self._topology_client

    def resource_prefix(self):
        return CONF.conformance.resource_prefix
