"""The network endpoint Tempest insists on (see cloud/network_stub.py).

Not neutron: Tempest's compute tests need a network service in the
catalog and its dynamic credentials list and delete security groups; the
stub answers exactly that. It runs in nova's process (nova's own network
calls go to nova's NeutronFixture there).
"""

from conformance_tests.cloud.services import base


class NetworkStub(base.Service):
    name = 'network-stub'
    process = 'nova'
    catalog = (base.CatalogEntry('network', base.API, '/'),)
    depends_on = ('keystone',)

    def tempest_conf(self, ctx):
        # No network is created: [auth] create_isolated_networks is false
        # and [validation] run_validation too (client_files.BASE).
        return {'service_available': {'neutron': 'true'}}

    def build(self, proc):
        from conformance_tests.cloud import network_stub
        return {base.API: network_stub.app}


SERVICE = NetworkStub()
