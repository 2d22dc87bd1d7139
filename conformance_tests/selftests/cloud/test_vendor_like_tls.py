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

"""The `vendor-like-tls` profile: a private CA per cloud (cloud/tls.py),
the front door over HTTPS before plain services, https in the catalog and
client files, and every service's own clients told about the CA. The
front door is tried over real TLS; no cloud is started."""

import configparser
import http.client
import json
import os
import ssl
import stat

import fixtures
import testtools

from conformance_tests.cloud import client_files
from conformance_tests.cloud import front_door
from conformance_tests.cloud import launcher
from conformance_tests.cloud import profiles
from conformance_tests.cloud.services import blazar
from conformance_tests.cloud.services import glance
from conformance_tests.cloud.services import nova
from conformance_tests.cloud.services import placement
from conformance_tests.cloud.services import senlin
from conformance_tests.cloud import tls
from conformance_tests.cloud import wsgi_server
from conformance_tests.common import tls as common_tls
from conformance_tests.selftests.cloud import test_front_door
from conformance_tests.selftests.cloud import test_vendor_like

PROFILE = 'vendor-like-tls'
HOST = test_front_door.HOST


def tls_ctx(test, profile=PROFILE):
    """The launcher's context for ``profile`` with a CA made under a
    temporary service directory, as EmbeddedCloud.up makes it."""
    service_dir = test.useFixture(fixtures.TempDir()).path
    ctx = test_vendor_like.launch_ctx(profile, service_dir=service_dir)
    ctx.ca_file = tls.make(os.path.join(service_dir, 'tls'), HOST).ca
    return ctx


class SettingsTest(testtools.TestCase):

    def test_vendor_like_over_tls_and_nothing_else(self):
        self.assertEqual(dict(profiles.settings('vendor-like'), tls=True),
                         profiles.settings(PROFILE))

    def test_tls_without_the_front_door_is_refused_in_one_line(self):
        e = self.assertRaises(launcher.CloudError, launcher.EmbeddedCloud,
                              '/tmp/no-such-cloud', tls=True)
        self.assertIn('front_door', str(e))


class CertificateTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.files = tls.make(self.dir, HOST)

    def test_the_key_is_private_the_certificates_are_not(self):
        self.assertEqual(0o600, stat.S_IMODE(os.stat(self.files.key).st_mode))
        for path in (self.files.ca, self.files.cert):
            self.assertTrue(os.path.getsize(path))
        self.assertEqual({tls.CA_FILE, tls.CERT_FILE, tls.KEY_FILE},
                         set(os.listdir(self.dir)))

    def test_each_cloud_has_a_ca_of_its_own(self):
        other = tls.make(os.path.join(self.dir, 'other'), HOST)
        with open(self.files.ca) as a, open(other.ca) as b:
            self.assertNotEqual(a.read(), b.read())


class CatalogAndClientFilesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.ctx = tls_ctx(self)
        self.door = 'https://%s:%d' % (HOST,
                                       self.ctx.ports[front_door.NAME]['api'])

    def test_every_catalog_entry_is_https_at_the_front_door(self):
        for kind, url in test_vendor_like.catalog(self.ctx).items():
            self.assertTrue(url.startswith(self.door + '/'), (kind, url))

    def test_the_services_own_ports_stay_plain(self):
        self.assertTrue(self.ctx.url('nova').startswith('http://'))

    def test_tempest_conf_and_clouds_yaml_name_the_ca(self):
        conf = client_files.tempest_conf(self.ctx, self.ctx.descriptors,
                                         '/tmp/logs')
        self.assertEqual(self.door + '/identity/v3',
                         conf['identity']['uri_v3'])
        self.assertEqual(self.ctx.ca_file,
                         conf['identity']['ca_certificates_file'])
        clouds = {}
        for d in self.ctx.descriptors:
            clouds.update(d.clouds(self.ctx))
        for name, cloud in clouds.items():
            self.assertEqual(self.ctx.ca_file, cloud['cacert'], name)

    def test_a_plain_cloud_names_no_ca(self):
        ctx = test_vendor_like.launch_ctx('vendor-like')
        conf = client_files.tempest_conf(ctx, ctx.descriptors, '/tmp/logs')
        self.assertNotIn('ca_certificates_file', conf['identity'])


class ServiceTrustTest(testtools.TestCase):
    """Each service's own clients reach the front door trusting the CA,
    through their own cafile options."""

    def setUp(self):
        super().setUp()
        self.ctx = tls_ctx(self)

    def read(self, path):
        conf = configparser.ConfigParser(interpolation=None)
        conf.read(path)
        return conf

    def test_nova(self):
        flags = nova.nova_config(self.ctx)['flags']
        for group in ('keystone_authtoken', 'placement', 'glance',
                      'keystone'):
            self.assertEqual(self.ctx.ca_file, flags[group]['cafile'], group)

    def test_nova_with_unified_limits(self):
        ctx = tls_ctx(self, 'unified-limits')
        self.assertEqual(ctx.ca_file, nova.nova_config(ctx)['flags'][
            'oslo_limit']['cafile'])

    def test_placement_and_glance_middleware(self):
        for path in (placement.SERVICE.write_config(self.ctx),
                     glance.glance_conf(
                         self.ctx.service_dir, self.ctx.identity_uri,
                         self.ctx.service_user('glance'),
                         self.ctx.url('glance'), self.ctx.ca_file)):
            self.assertEqual(self.ctx.ca_file, self.read(path)[
                'keystone_authtoken']['cafile'], path)

    def test_senlin(self):
        conf = self.read(senlin.SERVICE.write_config(self.ctx))
        for group in ('authentication', 'keystone_authtoken'):
            self.assertEqual(self.ctx.ca_file, conf[group]['cafile'], group)

    def test_blazar_builds_an_https_keystone_url(self):
        conf = self.read(blazar.blazar_conf(self.ctx))
        default = conf['DEFAULT']
        self.assertEqual(self.ctx.ca_file, default['cafile'])
        self.assertEqual(self.ctx.ca_file,
                         conf['keystone_authtoken']['cafile'])
        self.assertEqual(self.ctx.identity_uri, '%s://%s:%s/%s/v3' % (
            default['os_auth_protocol'], default['os_auth_host'],
            default['os_auth_port'], default['os_auth_prefix']))


class FrontDoorOverTLSTest(testtools.TestCase):
    """A real front door speaking TLS before a plain service server."""

    def setUp(self):
        super().setUp()
        directory = self.useFixture(fixtures.TempDir()).path
        self.files = tls.make(directory, HOST)
        backend_port = test_front_door._free_port()
        backend = wsgi_server.start(test_front_door.echo_app, HOST,
                                    backend_port, 'echo',
                                    behind_front_door=True)
        self.addCleanup(backend.server_close)
        self.addCleanup(backend.shutdown)
        self.door = front_door.serve(
            HOST, 0, {'/compute': backend_port},
            tls_files={'cert': self.files.cert, 'key': self.files.key})
        self.addCleanup(self.door.server_close)
        self.addCleanup(self.door.shutdown)
        self.port = self.door.server_address[1]

    def get(self, context):
        conn = http.client.HTTPSConnection(HOST, self.port, timeout=10,
                                           context=context)
        self.addCleanup(conn.close)
        conn.request('GET', '/compute/v2.1')
        response = conn.getresponse()
        return response, json.loads(response.read())

    def test_the_ca_is_trusted_and_links_say_https(self):
        response, seen = self.get(common_tls.client_context(self.files.ca))
        self.assertEqual(200, response.status)
        self.assertEqual('/compute', seen['script_name'])
        self.assertEqual('https://%s:%d/compute/v2.1' % (HOST, self.port),
                         seen['link'])

    def test_a_client_without_the_ca_is_refused_and_the_door_stays(self):
        e = self.assertRaises(ssl.SSLCertVerificationError, self.get,
                              common_tls.client_context())
        self.assertIn('CERTIFICATE_VERIFY_FAILED', str(e))
        response, _ = self.get(common_tls.client_context(self.files.ca))
        self.assertEqual(200, response.status)
