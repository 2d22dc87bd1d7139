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

"""common/gabbi_http.py over real TLS: a throw-away CA, a loopback HTTPS
server signed by it, and each of gabbi's client shapes.

The installed gabbi is driven end to end (a suite built by suitemaker,
as the runner builds it). The other shape is tried on the object that
shape's gabbi builds: gabbi 2.x/3.x's ``Http`` is a urllib3 PoolManager
made with ``ca_certs=certifi.where()``, gabbi 4.x's holds an
``httpx.Client``; gabbi's own class is constructed where the installed
gabbi has it, else the same object is built from urllib3 or httpx (one
gabbi is installed at a time, and both shapes are called ``Http``).
"""

import ssl
import time
import types
import unittest

import fixtures
import testtools

from conformance_tests.cloud import tls as cloud_tls
from conformance_tests.common import gabbi_http
from conformance_tests.selftests import preflight as fake_cloud

VERIFY_FAILED = 'CERTIFICATE_VERIFY_FAILED'


class TLSServer(fixtures.Fixture):
    """A loopback HTTPS server whose certificate a new CA signed; GET
    answers 200 with a small JSON body."""

    def _setUp(self):
        # The refusals these tests provoke are logged by httpcore and
        # urllib3 (at DEBUG where an earlier test in the worker set
        # that up): kept in the test's details, not printed.
        self.useFixture(fixtures.FakeLogger())
        directory = self.useFixture(fixtures.TempDir()).path
        self.files = cloud_tls.make(directory, '127.0.0.1')
        listener = fake_cloud.Listener(
            lambda method, path, headers, body: (200, {}, {'path': path}),
            tls_context=cloud_tls.server_context(self.files.cert,
                                                 self.files.key))
        self.addCleanup(listener.stop)
        self.port = listener.port
        self.url = listener.url


def _installed_shape():
    from gabbi import httpclient
    import urllib3
    return 'urllib3' if issubclass(
        httpclient.Http, urllib3.PoolManager) else 'httpx'


class InstalledGabbiTest(testtools.TestCase):
    """The installed gabbi, through a suite built as the runner builds
    it."""

    def setUp(self):
        super().setUp()
        self.server = self.useFixture(TLSServer())

    def run_suite(self, ca_file=None, verify=True):
        from gabbi import handlers
        from gabbi import suitemaker
        data = {'defaults': {'ssl': True},
                'tests': [{'name': 'a get', 'GET': '/x', 'status': 200,
                           'response_json_paths': {'$.path': '/x'}}]}
        gabbi_http.defaults(data['defaults'], verify, 60)
        suite = suitemaker.test_suite_from_dict(
            unittest.defaultTestLoader, 'tls', data, '.', '127.0.0.1',
            self.server.port, None, None,
            handlers=[h() for h in handlers.RESPONSE_HANDLERS],
            test_loader_name='selftest')
        gabbi_http.prepare(suite, ca_file, verify, 60)
        result = unittest.TestResult()
        suite.run(result)
        return result

    def test_the_ca_file_is_trusted(self):
        result = self.run_suite(ca_file=self.server.files.ca)
        self.assertEqual([], result.errors + result.failures)
        self.assertEqual(1, result.testsRun)

    def test_without_the_ca_file_the_certificate_is_refused(self):
        result = self.run_suite()
        self.assertEqual(1, len(result.errors), result.failures)
        self.assertIn(VERIFY_FAILED, result.errors[0][1])

    def test_the_deadline_is_gabbis_own_timeout_where_it_has_one(self):
        from gabbi import case
        found = {}
        gabbi_http.defaults(found, True, 17)
        if 'timeout' in case.BASE_TEST:
            self.assertEqual({'timeout': 17}, found)
        else:  # gabbi 2.x: the pools hold it (PoolManagerShapeTest)
            self.assertEqual({}, found)

    def test_disabled_validation_is_gabbis_own_cert_validate(self):
        result = self.run_suite(verify=False)
        self.assertEqual([], result.errors + result.failures)

    def test_a_client_of_another_shape_is_refused_in_one_line(self):
        e = self.assertRaises(gabbi_http.GabbiClientError,
                              gabbi_http.trust_client, object(), 'ca.pem')
        self.assertIn('install a gabbi from 2.4.0', str(e))
        self.assertNotIn('\n', str(e))


class PoolManagerShapeTest(testtools.TestCase):
    """gabbi 2.x/3.x: a urllib3 PoolManager."""

    def setUp(self):
        super().setUp()
        self.server = self.useFixture(TLSServer())

    def client(self):
        import certifi
        import urllib3
        if _installed_shape() == 'urllib3':
            from gabbi import httpclient
            return httpclient.get_http()
        # gabbi 2/3's Http adds only request() to the PoolManager it is
        # built as (ca_certs=certifi.where()); its other arguments
        # (strict, urllib3 1.x's) are nothing to TLS.
        return urllib3.PoolManager(ca_certs=certifi.where())

    def get(self, client):
        import urllib3
        return urllib3.PoolManager.request(
            client, 'GET', self.server.url + '/y',
            retries=urllib3.util.Retry(total=False))

    def test_the_ca_file_is_trusted(self):
        client = self.client()
        gabbi_http.trust_client(client, self.server.files.ca)
        self.assertEqual(200, self.get(client).status)

    def test_without_it_the_certificate_is_refused(self):
        import urllib3
        e = self.assertRaises(urllib3.exceptions.SSLError, self.get,
                              self.client())
        self.assertIn(VERIFY_FAILED, str(e))

    def test_its_pools_wait_the_timeout_they_are_given(self):
        # gabbi 2.x passes no timeout per request: only the pools can
        # hold Tempest's http_timeout.
        import urllib3
        slow = fake_cloud.Listener(
            lambda method, path, headers, body: (
                time.sleep(1.5) or (200, {}, {})))
        self.addCleanup(slow.stop)
        client = self.client()
        gabbi_http.pool_timeout(client, 4)
        self.assertEqual(200, urllib3.PoolManager.request(
            client, 'GET', slow.url + '/', retries=False).status)
        gabbi_http.pool_timeout(client, 1)
        self.assertRaises(urllib3.exceptions.ReadTimeoutError,
                          urllib3.PoolManager.request, client, 'GET',
                          slow.url + '/', retries=False)

    def test_a_client_of_another_shape_gets_no_timeout_silently(self):
        e = self.assertRaises(gabbi_http.GabbiClientError,
                              gabbi_http.pool_timeout, object(), 60)
        self.assertIn('[service-clients] http_timeout', str(e))
        self.assertNotIn('\n', str(e))


class HttpxShapeTest(testtools.TestCase):
    """gabbi 4.x: an object holding an httpx.Client."""

    def setUp(self):
        super().setUp()
        try:
            import httpx  # noqa: F401
        except ImportError:
            self.skipTest('httpx is not installed: the installed gabbi '
                          '(2.x/3.x) has no httpx client to adapt')
        self.server = self.useFixture(TLSServer())

    def client(self):
        import httpx
        if _installed_shape() == 'httpx':
            from gabbi import httpclient
            return httpclient.Http(cert_validate=True)
        # gabbi 4's Http: its client made with verify=True (certifi)
        return types.SimpleNamespace(client=httpx.Client(verify=True))

    def get(self, client):
        return client.client.get(self.server.url + '/z')

    def test_the_ca_file_is_trusted(self):
        client = self.client()
        gabbi_http.trust_client(client, self.server.files.ca)
        self.assertEqual(200, self.get(client).status_code)
        client.client.close()

    def test_without_it_the_certificate_is_refused(self):
        import httpx
        client = self.client()
        self.addCleanup(client.client.close)
        e = self.assertRaises(httpx.ConnectError, self.get, client)
        self.assertIn(VERIFY_FAILED, str(e))


class ClientContextTest(testtools.TestCase):

    def test_unverified_context_checks_nothing(self):
        from conformance_tests.common import tls
        context = tls.client_context('ignored.pem', verify=False)
        self.assertEqual(ssl.CERT_NONE, context.verify_mode)
        self.assertFalse(context.check_hostname)
