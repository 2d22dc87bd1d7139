"""Base class of compute API conformance tests (gabbi files)."""

from tempest import config
from tempest.lib.common.utils import test_utils
from tempest import test

from conformance_tests.common import gabbi_runner
from conformance_tests.common import microversion

CONF = config.CONF


class ComputeGabbiBase(gabbi_runner.GabbiFileRunner, test.BaseTestCase):
    """Server groups are a project user's API: no admin needed."""

    credentials = ['primary']
    gabbi_service = 'compute'

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        reason = microversion.compute_skip_reason(CONF, '2.1')
        if reason:
            raise cls.skipException(reason)

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.auth_provider = cls.os_primary.auth_provider
        cls.server_groups_client = cls.os_primary.server_groups_client

    def conf_for_gabbi(self):
        return CONF

    def gabbi_endpoint(self):
        return self.auth_provider.base_url({
            'service': CONF.compute.catalog_type,
            'endpoint_type': CONF.compute.endpoint_type,
            'region': CONF.compute.region or CONF.identity.region})

    def gabbi_token(self):
        return self.auth_provider.get_token()

    def resource_prefix(self):
        return CONF.conformance.resource_prefix

    def cleanup_prefixed(self, prefix):
        groups = self.server_groups_client.list_server_groups()
        for group in groups['server_groups']:
            if group['name'].startswith(prefix):
                test_utils.call_and_ignore_notfound_exc(
                    self.server_groups_client.delete_server_group,
                    group['id'])
