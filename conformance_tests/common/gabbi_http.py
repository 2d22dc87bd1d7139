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

"""Give gabbi's built tests the trust and the deadline Tempest's clients
have.

Deadline: Tempest's clients wait ``[service-clients] http_timeout`` for
the connection and for each answer; gabbi waits its own 30 s (its
``timeout`` key, from gabbi 3.0) or, in gabbi 2.x, which has no such
key, forever. So the runner gives every request Tempest's deadline:
the file's ``defaults`` hold ``timeout`` where gabbi knows the key, and
gabbi 2.x's urllib3 pools are made with it. A busy cloud that answers
within it is then judged as a quiet one, and one that does not fails
as Tempest's own clients would.

Trust: gabbi checks a server's certificate against certifi's bundle only; its
one TLS knob is the per-test ``cert_validate`` (False: check nothing).
A cloud with a private CA (DevStack's tls-proxy, most vendors) then
fails every request with CERTIFICATE_VERIFY_FAILED, while Tempest's own
clients trust ``[identity] ca_certificates_file``.

``disable_ssl_certificate_validation`` goes through gabbi's own
``cert_validate: false`` (``defaults``); the CA file is given to each
built test's HTTP client, before its first request, in whichever of
gabbi's two client shapes the installed gabbi has:

- gabbi 2.x and 3.x: ``Http`` is a ``urllib3.PoolManager``; its pools
  are made on the first request from ``connection_pool_kw``, so the CA
  goes there as ``ca_certs`` (in place of ``certifi.where()``).
- gabbi 4.x: ``Http`` holds an ``httpx.Client`` made with ``verify`` at
  construction; it is replaced by one whose ``verify`` is an SSL context
  that trusts the CA file.

Like Tempest's clients, the CA file replaces the default bundle rather
than adding to it.
"""

from conformance_tests.common import tls


def _knows_timeout():
    from gabbi import case
    return 'timeout' in case.BASE_TEST


class GabbiClientError(Exception):
    """The installed gabbi's HTTP client is of a shape this module does
    not know: its message says what to install."""


def defaults(test_defaults, verify, timeout):
    """Put in a file's ``defaults`` what gabbi's own keys can say:
    ``cert_validate: false`` when certificates are not to be checked,
    and the ``timeout`` of every request (seconds) where gabbi has the
    key."""
    if not verify:
        test_defaults['cert_validate'] = False
    if _knows_timeout():
        test_defaults['timeout'] = timeout


def prepare(suite, ca_file, verify, timeout):
    """Before the first request of ``suite`` (gabbi's built tests): in
    gabbi 2.x, give the pools ``timeout``; with a CA file to check
    against, make every test's client trust it only."""
    knows_timeout = _knows_timeout()
    for test in _tests(suite):
        if not knows_timeout:
            pool_timeout(test.http, timeout)
        if ca_file and verify:
            trust_client(test.http, ca_file,
                         test.test_data.get('http_version'))


def pool_timeout(http, timeout):
    """gabbi 2.x's client is a urllib3 PoolManager and passes no timeout
    per request: the pools it makes get ``timeout`` (connect and read)."""
    if not hasattr(http, 'connection_pool_kw'):
        raise GabbiClientError(
            'gabbi\'s HTTP client %s has no timeout key and is not a '
            'urllib3 PoolManager: the suite cannot give it [service-clients] '
            'http_timeout; install a gabbi from 2.4.0 to 4.x'
            % type(http).__name__)
    http.connection_pool_kw['timeout'] = timeout
    http.clear()


def trust_client(http, ca_file, http_version=None):
    """Give one gabbi ``Http`` object the CA, whatever its shape."""
    if hasattr(http, 'connection_pool_kw'):
        _trust_pool_manager(http, ca_file)
    elif _is_httpx_client(getattr(http, 'client', None)):
        _trust_httpx(http, ca_file, http_version)
    else:
        raise GabbiClientError(
            'gabbi\'s HTTP client %s is neither a urllib3 PoolManager '
            '(gabbi 2/3) nor holds an httpx.Client (gabbi 4): the suite '
            'cannot give it [identity] ca_certificates_file; install a '
            'gabbi from 2.4.0 to 4.x' % type(http).__name__)


def _trust_pool_manager(http, ca_file):
    http.connection_pool_kw['ca_certs'] = ca_file
    # A pool made before this (none is, before the first request) would
    # keep the old bundle.
    http.clear()


def _is_httpx_client(client):
    try:
        import httpx
    except ImportError:
        return False
    return isinstance(client, httpx.Client)


def _trust_httpx(http, ca_file, http_version):
    import httpx

    # The runner reaches a real cloud, never an intercepted WSGI app, so
    # the client it replaces has httpx's own network transport.
    old = http.client
    version = int(http_version or 1)
    http.client = httpx.Client(
        verify=tls.client_context(ca_file),
        http1=(version == 1), http2=(version == 2))
    old.close()


def _tests(suite):
    for item in suite:
        if hasattr(item, 'http'):
            yield item
        else:
            yield from _tests(item)
