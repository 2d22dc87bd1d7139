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

"""A fake cloud on loopback for preflight's self-tests.

Tiny http.server listeners on 127.0.0.1 ephemeral ports: one plays
keystone (GET /v3, POST /v3/auth/tokens answering X-Subject-Token and a
token with roles and the catalog), the others play service endpoints
answering version documents. Nothing leaves the machine.
"""

import http.server
import json
import os
import socket
import threading
import time

import fixtures

ADMIN_PASSWORD = 'Adm1n-S3cret-pw-4f9a'
TOKEN_PREFIX = 'gAAAAA-tok-S3cret-'
REGION = 'RegionOne'

COMPUTE_DOC = {'version': {'id': 'v2.1', 'status': 'CURRENT',
                           'version': '2.79', 'min_version': '2.1'}}
PLACEMENT_DOC = {'versions': [{'id': 'v1.0', 'status': 'CURRENT',
                               'max_version': '1.39', 'min_version': '1.0'}]}
IMAGE_DOC = {'versions': [{'id': 'v2.18', 'status': 'CURRENT'},
                          {'id': 'v2.17', 'status': 'SUPPORTED'}]}
NETWORK_DOC = {'versions': [{'id': 'v2.0', 'status': 'CURRENT'}]}
CLUSTERING_DOC = {'versions': [{'id': '1.0', 'status': 'CURRENT',
                                'min_version': '1.0',
                                'max_version': '1.14'}]}
RESERVATION_DOC = {'versions': [{'id': 'v1.0', 'status': 'CURRENT',
                                 'min_version': '1.0',
                                 'max_version': '1.0'}]}


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client refusing the certificate, on purpose


class Listener(object):
    """One loopback HTTP server; ``handle(method, path, headers, body)``
    gives (status, {header: value}, JSON-able body or None). With
    ``tls_context`` (a server-side ssl.SSLContext) it serves HTTPS, and a
    client that refuses its certificate is not reported."""

    def __init__(self, handle, tls_context=None):
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _serve(self):
                length = int(self.headers.get('Content-Length') or 0)
                raw = self.rfile.read(length) if length else b''
                body = json.loads(raw) if raw else None
                status, headers, answer = owner.handle(
                    self.command, self.path, self.headers, body)
                data = b'' if answer is None else json.dumps(
                    answer).encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _serve

            def log_message(self, *args):
                pass

        self.handle = handle
        if tls_context is None:
            self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                          Handler)
            self.server.daemon_threads = True
        else:
            self.server = _QuietServer(('127.0.0.1', 0), Handler)
            self.server.socket = tls_context.wrap_socket(
                self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.url = '%s://127.0.0.1:%d' % (
            'http' if tls_context is None else 'https', self.port)
        # A short poll: stop() waits for it, once per listener.
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={'poll_interval': 0.02},
                                       daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def closed_port():
    """A loopback port nothing listens on."""
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class SilentPort(fixtures.Fixture):
    """A loopback port whose accept queue is full: a connection attempt
    gets no answer at all, as from a host behind a firewall that drops
    packets."""

    def _setUp(self):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        sock.listen(0)
        self.addCleanup(sock.close)
        self.port = sock.getsockname()[1]
        for _ in range(3):
            held = socket.socket()
            held.setblocking(False)
            try:
                held.connect(('127.0.0.1', self.port))
            except BlockingIOError:
                pass
            self.addCleanup(held.close)


class Service(object):
    """A catalog entry and the listener behind it.

    ``docs`` maps a path to (status, body[, headers]) for requests with a
    token;
    ``anonymous`` answers requests without one (None: as with one).
    Any other path answers 404.
    """

    def __init__(self, service_type, path, docs, interfaces=('public',
                 'internal', 'admin'), region=REGION, anonymous=None,
                 closed=False):
        self.type = service_type
        self.path = path
        self.docs = docs
        self.interfaces = interfaces
        self.region = region
        self.anonymous = anonymous
        self.requests = []
        if closed:
            self.listener = None
            self.url = 'http://127.0.0.1:%d%s' % (closed_port(), path)
        else:
            self.listener = Listener(self._handle)
            self.url = self.listener.url + path

    def _handle(self, method, path, headers, body):
        token = headers.get('X-Auth-Token')
        self.requests.append((method, path, token))
        docs = self.docs if token or self.anonymous is None \
            else self.anonymous
        found = docs.get(path, (404, {'error': 'not found'}))
        return found[0], (found[2] if len(found) > 2 else {}), found[1]

    def entry(self):
        return {'type': self.type, 'name': self.type, 'id': self.type,
                'endpoints': [{'interface': i, 'region': self.region,
                               'region_id': self.region, 'url': self.url,
                               'id': '%s-%s' % (self.type, i)}
                              for i in self.interfaces]}

    def stop(self):
        if self.listener:
            self.listener.stop()


def good_services():
    """compute, placement, image and network as a healthy cloud has them;
    the reservation one answers as blazar does (401 without a token, 404
    at its versioned URL, its version document at its root)."""
    return {
        'compute': Service('compute', '/v2.1', {
            '/v2.1': (200, COMPUTE_DOC)}),
        'placement': Service('placement', '/', {
            '/': (200, PLACEMENT_DOC)}),
        'image': Service('image', '/', {'/': (300, IMAGE_DOC)}),
        'network': Service('network', '/', {'/': (200, NETWORK_DOC)}),
    }


def clustering():
    return Service('clustering', '/', {'/': (300, CLUSTERING_DOC)})


def reservation():
    return Service('reservation', '/v1', {'/': (300, RESERVATION_DOC)},
                   anonymous={})


class FakeCloud(fixtures.Fixture):
    """Keystone and services. ``users``: {name: {'password', 'project',
    'roles'}}; ``services``: {key: Service}; ``identity_delay``: seconds
    keystone takes over every answer (a busy cloud)."""

    def __init__(self, users=None, services=None, echo_password=False,
                 identity_delay=0):
        super().__init__()
        self.users = users if users is not None else {
            'admin': {'password': ADMIN_PASSWORD, 'project': 'admin',
                      'roles': ['admin', 'member', 'reader']}}
        self.services = services if services is not None \
            else good_services()
        self.echo_password = echo_password
        self.identity_delay = identity_delay
        self.auth_requests = []
        self.issued = []

    def _setUp(self):
        self.keystone = Listener(self._keystone)
        self.addCleanup(self.keystone.stop)
        self.uri_v3 = self.keystone.url + '/v3'
        for service in self.services.values():
            self.addCleanup(service.stop)

    def catalog(self):
        identity = {'type': 'identity', 'name': 'keystone', 'id': 'keystone',
                    'endpoints': [{'interface': i, 'region': REGION,
                                   'region_id': REGION, 'url': self.uri_v3,
                                   'id': 'keystone-' + i}
                                  for i in ('public', 'internal')]}
        return [identity] + [s.entry() for s in self.services.values()]

    def _keystone(self, method, path, headers, body):
        time.sleep(self.identity_delay)
        if method == 'GET' and path.rstrip('/') == '/v3':
            return 200, {}, {'version': {'id': 'v3.14', 'status': 'stable'}}
        if method != 'POST' or path != '/v3/auth/tokens':
            return 404, {}, {'error': {'code': 404, 'message': 'no'}}
        auth = body['auth']
        user = auth['identity']['password']['user']
        self.auth_requests.append(user.get('name'))
        if self.echo_password:
            # As a validation error quoting the request would.
            return 400, {}, {'error': {'code': 400, 'message': (
                'Invalid input for field identity/password/user: %r is '
                'too short' % user['password'])}}
        known = self.users.get(user.get('name'))
        if not known or known['password'] != user.get('password'):
            return 401, {}, {'error': {'code': 401, 'message': (
                'The request you have made requires authentication.')}}
        project = auth.get('scope', {}).get('project', {}).get('name')
        if project != known['project']:
            return 401, {}, {'error': {'code': 401, 'message': 'no'}}
        token = '%s%d' % (TOKEN_PREFIX, len(self.issued))
        self.issued.append(token)
        return 201, {'X-Subject-Token': token}, {'token': {
            'methods': ['password'],
            'user': {'name': user['name'], 'id': user['name'] + '-id'},
            'project': {'name': project, 'id': project + '-id'},
            'roles': [{'name': r, 'id': r + '-id'} for r in known['roles']],
            'catalog': self.catalog()}}

    def write_conf(self, folder, sections=None, name='tempest.conf'):
        """A tempest.conf for this cloud; ``sections`` add or replace
        options ({section: {option: text or None to drop}})."""
        conf = {
            'DEFAULT': {'log_dir': folder},
            'identity': {'uri_v3': self.uri_v3, 'auth_version': 'v3',
                         'region': REGION},
            'auth': {'use_dynamic_credentials': 'true',
                     'admin_username': 'admin',
                     'admin_password': ADMIN_PASSWORD,
                     'admin_project_name': 'admin',
                     'admin_domain_name': 'Default'},
            'service_available': {'nova': 'true', 'placement': 'true',
                                  'glance': 'true', 'neutron': 'true',
                                  'cinder': 'false', 'senlin': 'false',
                                  'blazar': 'false'},
            'compute': {'min_microversion': '2.1',
                        'max_microversion': '2.79'},
            'placement': {'min_microversion': '1.0',
                          'max_microversion': '1.39'},
            'conformance': {'fault_control_token': 'ctl-S3cret-token-77'},
        }
        for section, options in (sections or {}).items():
            for option, value in options.items():
                target = conf.setdefault(section, {})
                if value is None:
                    target.pop(option, None)
                else:
                    target[option] = value
        path = os.path.join(folder, name)
        with open(path, 'w') as f:
            for section, options in conf.items():
                f.write('[%s]\n' % section)
                for option, value in options.items():
                    f.write('%s = %s\n' % (option, value))
                f.write('\n')
        return path

    def secrets(self):
        """Every secret a leak test must not find."""
        return ([ADMIN_PASSWORD, 'ctl-S3cret-token-77', TOKEN_PREFIX] +
                [u['password'] for u in self.users.values()] + self.issued)
