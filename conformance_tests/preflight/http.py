"""HTTP with short timeouts and a few words for why a request failed.

Tempest's TLS and proxy settings apply ([identity]
disable_ssl_certificate_validation and ca_certificates_file,
[service_clients] proxy_url); proxies from the environment do not, as
they do not for Tempest.
"""

import socket
import ssl
from urllib import parse

import requests
from urllib3 import exceptions as urllib3_exceptions

CONNECT_TIMEOUT = 3.0
READ_TIMEOUT = 10.0
MAX_REDIRECTS = 3
_REDIRECTS = (301, 302, 303, 307, 308)


class Unreachable(Exception):
    """No HTTP answer; str() says why in a few words."""


class Http(object):

    def __init__(self, verify=True, proxy=None,
                 timeouts=(CONNECT_TIMEOUT, READ_TIMEOUT)):
        self.verify = verify
        self.proxies = {'http': proxy, 'https': proxy} if proxy else {}
        self.timeouts = timeouts

    @classmethod
    def from_conf(cls, conf, timeouts=(CONNECT_TIMEOUT, READ_TIMEOUT)):
        verify = True
        if conf.flag('identity', 'disable_ssl_certificate_validation',
                     False):
            verify = False
        elif conf.get('identity', 'ca_certificates_file'):
            verify = conf.get('identity', 'ca_certificates_file')
        return cls(verify, conf.get('service_clients', 'proxy_url'),
                   timeouts)

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
                    timeout=self.timeouts, verify=self.verify,
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
        connect, read = self.timeouts
        if isinstance(error, (requests.exceptions.MissingSchema,
                              requests.exceptions.InvalidSchema,
                              requests.exceptions.InvalidURL)):
            return 'not an http(s) URL'
        if isinstance(error, requests.exceptions.ConnectTimeout):
            return 'no connection within %g s' % connect
        if isinstance(error, requests.exceptions.ReadTimeout):
            return 'connected, but no answer within %g s' % read
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
            return 'no connection within %g s' % connect
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
