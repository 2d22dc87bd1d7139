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

"""The front door: every API under its DevStack path, on one port.

DevStack, and many a vendor, serve every API from one web server, each
under a path of its own: keystone at ``/identity``, nova at ``/compute``,
placement at ``/placement``. Apache proxies ``/compute/...`` to nova's
uwsgi and hands nova the path it is mounted at as SCRIPT_NAME, so the
version documents and links nova builds from the request URL carry the
prefix. A client that assumes an API sits at a port's root fails there.

With the ``front_door`` cloud setting (the ``vendor-like`` profile) the
launcher starts this in a process of its own, on the port after the
services': a request whose path starts with a listener's ``prefix``
(cloud/services/base.py) goes to that service's own port, the prefix
stripped from the path and named in ``X-Forwarded-Prefix``; the Host
header is passed as the client sent it. The services' server
(wsgi_server.py, under the same setting) makes that prefix the request's
SCRIPT_NAME, as uwsgi does. keystone's catalog, tempest.conf and
clouds.yaml then hold the front door's URLs (launch_context.py); every
service still answers on its own port too.

Bodies are small here (the largest is a 64 KiB image): a request body is
read whole (chunked ones decoded) and a response body too, each passed on
with its length. Connections to clients are kept alive; every request
opens its own connection to the service (wsgiref speaks HTTP/1.0).

    python -m conformance_tests.cloud.front_door SPEC

With the ``tls`` setting (the ``vendor-like-tls`` profile) the front
door alone speaks HTTPS, with the certificate the launcher signed with
the cloud's private CA (tls.py), and says ``X-Forwarded-Proto: https``:
the services behind it stay plain HTTP on loopback, as uwsgi does behind
DevStack's TLS proxy, and build their links with https.

SPEC (JSON, written by the launcher): host, port, routes ({prefix:
port}), log_file, and tls ({cert, key}) for HTTPS.
"""

import http.client
import http.server
import json
import logging
import signal
import ssl
import subprocess
import sys
import threading

from conformance_tests.cloud import tls
from conformance_tests.cloud import wsgi_server

NAME = 'front-door'
LISTENER = 'api'
# Headers of one connection rather than of the message (RFC 9110 7.6.1),
# and the body's framing, which the front door sets itself.
HOP_BY_HOP = frozenset((
    'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization',
    'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade',
    'content-length', 'expect'))
# What the front door says about the request; never taken from a client.
FORWARDED = frozenset((
    'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
    'x-forwarded-prefix'))
# A request may wait long behind others: every service answers one at a
# time (wsgi_server.py), and blazar's host enrolment takes seconds.
BACKEND_TIMEOUT = 600
NO_BODY_STATUSES = frozenset((204, 304))

LOG = logging.getLogger('conformance.cloud.front_door')


# -- the launcher's side -------------------------------------------------
def assign_port(ports):
    """Give the front door the port after every service's, in ``ports``
    ({service: {listener: port}}); return it."""
    port = max(p for listeners in ports.values()
               for p in listeners.values()) + 1
    ports[NAME] = {LISTENER: port}
    return port


def prefix(descriptors, service, listener):
    """The prefix the front door serves ``listener`` of ``service`` under,
    or None."""
    for d in descriptors:
        if d.name == service:
            for li in d.listeners:
                if li.name == listener:
                    return li.prefix
    return None


def routes(descriptors, ports):
    """{prefix: port} of every listener with a prefix."""
    found = {}
    for d in descriptors:
        for li in d.listeners:
            if li.prefix:
                if li.prefix in found:
                    raise ValueError('front door prefix %s is given twice'
                                     % li.prefix)
                found[li.prefix] = ports[d.name][li.name]
    return found


def start(spec_file, out_path):
    """The front door's process, in a session of its own (so that
    stopping it is the launcher's signal to its group, as for the
    services)."""
    with open(out_path, 'wb') as out:
        return subprocess.Popen(
            [sys.executable, '-m', __name__, spec_file],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)


# -- the front door ------------------------------------------------------
def match(routes, path):
    """(prefix, port, the path the service gets) for a request path
    (with its query), or None. A prefix matches whole path segments."""
    for pre in sorted(routes, key=len, reverse=True):
        rest = path[len(pre):]
        if path.startswith(pre) and rest[:1] in ('', '/', '?'):
            return pre, routes[pre], rest if rest.startswith('/') else (
                '/' + rest)
    return None


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'conformance-front-door'
    # The head and the body of an answer are two writes: without this the
    # body would wait for the client's delayed ACK of the head (~40 ms).
    disable_nagle_algorithm = True

    def setup(self):
        # The TLS handshake happens here, in the request's own thread, so
        # a slow or refusing client holds up no other (accept() does not
        # shake hands: do_handshake_on_connect is off).
        if isinstance(self.request, ssl.SSLSocket):
            self.request.do_handshake()
        super().setup()

    def _forward(self):
        body = self._body()  # read even when refused: the connection lives on
        found = match(self.server.routes, self.path)
        if found is None:
            return self._refuse(404, 'no API under %s; the front door '
                                'serves %s' % (
                                    self.path.split('?')[0],
                                    ', '.join(sorted(self.server.routes))))
        pre, port, path = found
        host = self.headers.get('Host') or '%s:%d' % (
            self.server.server_address[:2])
        headers = [(k, v) for k, v in self.headers.items()
                   if k.lower() not in HOP_BY_HOP | FORWARDED | {'host'}]
        headers += [('Host', host), ('X-Forwarded-Host', host),
                    ('X-Forwarded-Proto', self.server.scheme),
                    ('X-Forwarded-For', self.client_address[0]),
                    ('X-Forwarded-Prefix', pre)]
        if body is not None:
            headers.append(('Content-Length', str(len(body))))
        conn = http.client.HTTPConnection(self.server.backend_host, port,
                                          timeout=BACKEND_TIMEOUT)
        try:
            conn.putrequest(self.command, path, skip_host=True,
                            skip_accept_encoding=True)
            for key, value in headers:
                conn.putheader(key, value)
            conn.endheaders(body)
            response = conn.getresponse()
            data = response.read()
        except OSError as e:
            return self._refuse(502, '%s (port %d) did not answer: %s' % (
                pre, port, e))
        finally:
            conn.close()
        self.log_request(response.status)
        self.send_response_only(response.status, response.reason)
        for key, value in response.getheaders():
            if key.lower() not in HOP_BY_HOP:
                self.send_header(key, value)
        if self.command == 'HEAD':
            length = response.getheader('Content-Length')
            if length is not None:
                self.send_header('Content-Length', length)
            data = b''
        elif response.status not in NO_BODY_STATUSES:
            self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        if data:
            self.wfile.write(data)

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = \
        do_OPTIONS = _forward

    def _body(self):
        """The request body whole, or None when the request has none."""
        if self.headers.get('Transfer-Encoding', '').lower() == 'chunked':
            environ = {'HTTP_TRANSFER_ENCODING': 'chunked',
                       'wsgi.input': self.rfile}
            wsgi_server.dechunk(environ)
            return environ['wsgi.input'].read()
        length = self.headers.get('Content-Length')
        if length is None:
            return None
        return self.rfile.read(int(length))

    def _refuse(self, status, message):
        data = json.dumps({'error': {'code': status,
                                     'message': message}}).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(data)

    def log_message(self, fmt, *args):
        # method, path and status only: no headers, so no tokens
        LOG.info('%s %s', self.address_string(), fmt % args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Tempest's workers and the services' own calls arrive together.
    request_queue_size = 64

    def __init__(self, address, routes, backend_host, tls_context=None):
        super().__init__(address, _Handler)
        self.routes = dict(routes)
        self.backend_host = backend_host
        self.scheme = 'http'
        if tls_context is not None:
            self.socket = tls_context.wrap_socket(
                self.socket, server_side=True,
                do_handshake_on_connect=False)
            self.scheme = 'https'

    def handle_error(self, request, client_address):
        # A client that does not trust the CA ends the handshake: one
        # line, not a traceback per refused connection.
        error = sys.exc_info()[1]
        if isinstance(error, (ssl.SSLError, ConnectionError)):
            LOG.info('%s: %s', client_address[0], error)
            return
        super().handle_error(request, client_address)


def serve(host, port, routes, backend_host=None, tls_files=None):
    """Bind host:port now and forward ``routes`` ({prefix: port} on
    ``backend_host``, default ``host``) from a daemon thread; return the
    server (``shutdown()`` stops it). ``tls_files``: {cert, key} to
    speak HTTPS."""
    context = tls.server_context(tls_files['cert'], tls_files['key']) \
        if tls_files else None
    server = _Server((host, port), routes, backend_host or host, context)
    threading.Thread(target=server.serve_forever, kwargs={
        'poll_interval': 0.2}, daemon=True, name=NAME).start()
    return server


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit('usage: python -m conformance_tests.cloud.front_door SPEC '
                 '(the launcher starts it)')
    with open(argv[0]) as f:
        spec = json.load(f)
    logging.basicConfig(
        filename=spec['log_file'], level=logging.INFO,
        format='%(asctime)s %(process)d %(levelname)s %(name)s %(message)s')
    serve(spec['host'], spec['port'], spec['routes'],
          tls_files=spec.get('tls'))
    LOG.info('front door on %s%s:%d: %s', 'https://' if spec.get('tls')
             else '', spec['host'], spec['port'],
             ', '.join('%s -> %d' % r for r in sorted(
                 spec['routes'].items())))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    while not stop.wait(0.5):
        pass


if __name__ == '__main__':
    main()
