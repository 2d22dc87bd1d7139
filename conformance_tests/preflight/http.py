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

"""HTTP as Tempest's clients do it, and a few words for why a request
failed.

Tempest's settings apply: its deadline ([service-clients] http_timeout,
for the connection and for each answer, as Tempest's urllib3 pool uses
it), TLS ([identity] disable_ssl_certificate_validation and
ca_certificates_file) and proxy ([service-clients] proxy_url). Proxies
from the environment do not, as they do not for Tempest. A slow cloud
is not an error while it answers within the deadline; a failure names
the option that set it.
"""

import socket
import ssl
from urllib import parse

import requests
from urllib3 import exceptions as urllib3_exceptions

MAX_REDIRECTS = 3
_REDIRECTS = (301, 302, 303, 307, 308)


class Unreachable(Exception):
    """No HTTP answer; str() says why in a few words."""


class Http(object):

    def __init__(self, timeout, timeout_option, verify=True, proxy=None):
        self.timeout = timeout
        # named in every "no answer within" (conf.HTTP_TIMEOUT_OPTION)
        self.timeout_option = timeout_option
        self.verify = verify
        self.proxies = {'http': proxy, 'https': proxy} if proxy else {}

    @classmethod
    def from_conf(cls, conf):
        verify = True
        if conf.flag('identity', 'disable_ssl_certificate_validation',
                     False):
            verify = False
        elif conf.get('identity', 'ca_certificates_file'):
            verify = conf.get('identity', 'ca_certificates_file')
        return cls(conf.http_timeout(), conf.HTTP_TIMEOUT_OPTION, verify,
                   conf.get('service-clients', 'proxy_url'))

    def request(self, method, url, token=None, body=None, headers=None):
        """The response (any status), or Unreachable.

        Redirects are followed on the same scheme, host and port only:
        the token must not travel anywhere else.
        """
        headers = dict(headers or {}, Accept='application/json')
        if token:
            headers['X-Auth-Token'] = token
        session = requests.Session()
        session.trust_env = False
        try:
            for _ in range(MAX_REDIRECTS + 1):
                response = session.request(
                    method, url, headers=headers, json=body,
                    timeout=self.timeout, verify=self.verify,
                    proxies=self.proxies, allow_redirects=False)
                target = response.headers.get('Location')
                if response.status_code not in _REDIRECTS or not target:
                    break
                target = parse.urljoin(url, target)
                if _origin(target) != _origin(url):
                    break
                url = target
            return response
        except requests.exceptions.RequestException as e:
            raise Unreachable(self._why(e))
        finally:
            session.close()

    def _why(self, error):
        within = '%d s (%s)' % (self.timeout, self.timeout_option)
        if isinstance(error, (requests.exceptions.MissingSchema,
                              requests.exceptions.InvalidSchema,
                              requests.exceptions.InvalidURL)):
            return 'not an http(s) URL'
        if isinstance(error, requests.exceptions.ConnectTimeout):
            return 'no connection within ' + within
        if isinstance(error, requests.exceptions.ReadTimeout):
            return 'connected, but no answer within ' + within
        if isinstance(error, requests.exceptions.ProxyError):
            return 'the proxy failed (%s)' % _short(_root(error))
        if isinstance(error, requests.exceptions.SSLError):
            return 'TLS failed (%s)' % _short(_root(error))
        root = _root(error)
        if isinstance(root, ConnectionRefusedError):
            return 'connection refused'
        if isinstance(root, socket.gaierror):
            return 'the host name does not resolve'
        if isinstance(root, (socket.timeout, TimeoutError)):
            return 'no connection within ' + within
        if isinstance(root, ssl.SSLError):
            return 'TLS failed (%s)' % _short(root)
        if isinstance(root, OSError) and root.strerror:
            return root.strerror[0].lower() + root.strerror[1:]
        if isinstance(root, (ConnectionResetError,
                             urllib3_exceptions.ProtocolError)):
            return 'the connection was closed without an answer'
        return _short(root)


def _origin(url):
    parts = parse.urlsplit(url)
    return parts.scheme, parts.netloc


def _root(error):
    """The deepest cause of a requests/urllib3 exception."""
    seen = set()
    while id(error) not in seen:
        seen.add(id(error))
        nested = getattr(error, 'reason', None)
        if not isinstance(nested, BaseException):
            nested = error.__cause__ or error.__context__
        if nested is None and error.args and isinstance(
                error.args[0], BaseException):
            nested = error.args[0]
        if nested is None:
            break
        error = nested
    return error


def _short(error):
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:160]
