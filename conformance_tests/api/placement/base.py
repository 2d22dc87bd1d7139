"""Base class of placement API conformance tests (gabbi files)."""

from tempest import config
from tempest import test

from conformance_tests.common import gabbi_runner
from conformance_tests.services.placement import topology_client

CONF = config.CONF


class PlacementGabbiBase(gabbi_runner.GabbiFileRunner, test.BaseTestCase):
    """Placement's API needs the admin (or service) role by default."""

    credentials = ['admin']
    gabbi_service = 'placement'

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        if not CONF.service_available.placement:
            raise cls.skipException(
                'placement is not available: set [service_available] '
                'placement = true to run the placement conformance tests')

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.auth_provider = cls.os_admin.auth_provider
        cls.placement_filters = {
            'service': CONF.placement.catalog_type,
            'endpoint_type': CONF.placement.endpoint_type,
            'region': CONF.placement.region or CONF.identity.region,
        }
        cls._topology_client = topology_client.TopologyClient(
            cls.auth_provider, CONF.placement.catalog_type,
            cls.placement_filters['region'],
            endpoint_type=CONF.placement.endpoint_type,
            disable_ssl_certificate_validation=(
                CONF.identity.disable_ssl_certificate_validation),
            ca_certs=CONF.identity.ca_certificates_file)

    # GabbiFileRunner hooks
    def conf_for_gabbi(self):
        return CONF

    def gabbi_endpoint(self):
        return self.auth_provider.base_url(self.placement_filters)

    def gabbi_token(self):
        return self.auth_provider.get_token()

    def topology_client(self):
        return self._topology_client

    def resource_prefix(self):
        return CONF.conformance.resource_prefix
