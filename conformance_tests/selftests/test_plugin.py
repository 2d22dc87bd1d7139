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

"""plugin.py: the suite's service clients, registered the Tempest way."""

import inspect
import json
import os
import subprocess
import sys
import tempfile
import textwrap

from tempest.lib.common import rest_client
import testtools

from conformance_tests.services.compute import v2 as compute
from conformance_tests.services.placement import v1 as placement
from conformance_tests.services.reservation import v1 as reservation

TEMPEST_CONF = """\
[DEFAULT]
log_dir = {tmp}
[identity]
uri_v3 = https://keystone.invalid:5000/v3
auth_version = v3
region = RegionX
disable_ssl_certificate_validation = {dscv}
ca_certificates_file = {tmp}/ca.pem
[service-clients]
http_timeout = 17
[placement]
endpoint_type = internal
[conformance_reservation]
endpoint_type = admin
[compute]
build_interval = 3
build_timeout = 44
[oslo_concurrency]
lock_path = {tmp}/lock
"""

# Runs in a child: Tempest's CONF is a process-wide singleton, read once.
PROBE = textwrap.dedent("""
    import json
    from tempest import clients
    from tempest.lib import auth
    creds = auth.KeystoneV3Credentials(
        username='u', password='p', project_name='p',
        user_domain_name='Default', project_domain_name='Default')
    manager = clients.Manager(creds)
    found = {}
    for name, classes in (
            ('conformance_placement_v1', ['TopologyClient',
                                          'UsagesClient']),
            ('conformance_compute_v2', ['RawComputeClient']),
            ('conformance_reservation_v1', ['LeasesClient',
                                            'HostsClient'])):
        for cls in classes:
            c = getattr(getattr(manager, name), cls)()
            pool = c.http_obj.connection_pool_kw
            found[cls] = {
                'service': c.service, 'region': c.region,
                'endpoint_type': c.endpoint_type,
                'build_timeout': c.build_timeout, 'dscv': c.dscv,
                'ca_certs': pool.get('ca_certs'),
                'http_timeout': pool.get('timeout')}
    print(json.dumps(found))
""")


class ExportsTest(testtools.TestCase):

    def test_every_export_is_a_rest_client(self):
        for module in (placement, compute, reservation):
            self.assertNotEqual([], module.__all__)
            for name in module.__all__:
                cls = getattr(module, name)
                self.assertTrue(inspect.isclass(cls) and issubclass(
                    cls, rest_client.RestClient), name)

    def test_topology_client_keeps_the_methods_topology_py_calls(self):
        for method in ('create_resource_class', 'delete_resource_class',
                       'create_trait', 'delete_trait', 'create_provider',
                       'delete_provider', 'set_inventories',
                       'set_aggregates', 'set_traits', 'list_providers',
                       'list_resource_classes', 'list_traits'):
            self.assertTrue(callable(getattr(
                placement.TopologyClient, method, None)), method)


class RegistrationTest(testtools.TestCase):
    """A real Tempest client manager builds our clients from config."""

    def probe(self, dscv):
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, 'etc'))
            with open(os.path.join(tmp, 'etc', 'tempest.conf'), 'w') as f:
                f.write(TEMPEST_CONF.format(tmp=tmp, dscv=dscv))
            env = dict(os.environ, TEMPEST_CONFIG_DIR=os.path.join(
                tmp, 'etc'), TEMPEST_CONFIG='tempest.conf')
            done = subprocess.run([sys.executable, '-c', PROBE], env=env,
                                  capture_output=True, text=True,
                                  timeout=120)
            self.assertEqual(0, done.returncode, done.stderr[-2000:])
            return json.loads(done.stdout.strip().splitlines()[-1]), tmp

    def test_clients_get_tempest_settings_and_tls(self):
        found, tmp = self.probe('false')
        for name, service, endpoint_type in (
                ('TopologyClient', 'placement', 'internal'),
                ('UsagesClient', 'placement', 'internal'),
                ('RawComputeClient', 'compute', 'publicURL'),
                ('LeasesClient', 'reservation', 'admin'),
                ('HostsClient', 'reservation', 'admin')):
            self.assertEqual({
                'service': service, 'region': 'RegionX',
                'endpoint_type': endpoint_type, 'build_timeout': 44,
                'dscv': False, 'ca_certs': os.path.join(tmp, 'ca.pem'),
                'http_timeout': 17}, found[name], name)

    def test_disabled_certificate_validation_reaches_the_clients(self):
        found, _ = self.probe('true')
        for name in ('TopologyClient', 'UsagesClient', 'RawComputeClient',
                     'LeasesClient', 'HostsClient'):
            self.assertTrue(found[name]['dscv'], name)
