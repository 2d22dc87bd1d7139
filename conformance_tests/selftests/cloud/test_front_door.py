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

"""cloud/front_door.py: prefixes stripped, requests and answers passed on,
and the services' server mounting what it forwards (wsgi_server.py)."""

import http.client
import http.server
import json
import socket
import threading

import testtools

from conformance_tests.cloud import front_door
from conformance_tests.cloud import wsgi_server

HOST = '127.0.0.1'


def echo_app(environ, start_response):
    """A service that answers with what it was asked, and a link built
    from the request URL as keystone and nova build theirs."""
    from wsgiref import util
    length = int(environ.get('CONTENT_LENGTH') or 0)
    data = json.dumps({
        'method': environ['REQUEST_METHOD'],
        'script_name': environ.get('SCRIPT_NAME', ''),
        'path_info': environ.get('PATH_INFO', ''),
        'query': environ.get('QUERY_STRING', ''),
        'host': environ.get('HTTP_HOST'),
        'token': environ.get('HTTP_X_AUTH_TOKEN'),
        'forwarded_prefix': environ.get('HTTP_X_FORWARDED_PREFIX'),
        'body': environ['wsgi.input'].read(length).decode(),
        'link': util.request_uri(environ, include_query=False),
    }).encode()
    status = '201 Created' if environ['REQUEST_METHOD'] == 'POST' else \
        '200 OK'
    start_response(status, [
        ('Content-Type', 'application/json'),
        ('Content-Length', str(len(data))),
        ('Location', util.application_uri(environ).rstrip('/') + '/made'),
        ('Set-Cookie', 'a=1'), ('Set-Cookie', 'b=2')])
    return [data]


class _RawBackend(http.server.BaseHTTPRequestHandler):
    """A service that records the raw request line and headers."""
    seen = []

    def do_GET(self):
        type(self).seen.append((self.path, dict(self.headers)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def _free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class MatchTest(testtools.TestCase):

    routes = {'/compute': 1, '/identity': 2, '/compute/admin': 3}

    def test_prefix_is_stripped(self):
        self.assertEqual(('/compute', 1, '/v2.1/servers'), front_door.match(
            self.routes, '/compute/v2.1/servers'))

    def test_bare_prefix_is_the_root(self):
        self.assertEqual(('/identity', 2, '/'),
                         front_door.match(self.routes, '/identity'))
        self.assertEqual(('/identity', 2, '/'),
                         front_door.match(self.routes, '/identity/'))

    def test_query_is_kept(self):
        self.assertEqual(('/compute', 1, '/?a=1'),
                         front_door.match(self.routes, '/compute?a=1'))
        self.assertEqual(('/compute', 1, '/v2.1/x?a=/b'),
                         front_door.match(self.routes, '/compute/v2.1/x?a=/b'))

    def test_whole_segments_only(self):
        self.assertIsNone(front_door.match(self.routes, '/computer/x'))
        self.assertIsNone(front_door.match(self.routes, '/'))
        self.assertIsNone(front_door.match(self.routes, '/v3/compute'))

    def test_longest_prefix_wins(self):
        self.assertEqual(('/compute/admin', 3, '/x'),
                         front_door.match(self.routes, '/compute/admin/x'))


class ForwardTest(testtools.TestCase):
    """A real front door before a real service server (wsgi_server, as
    the service processes run it behind the front door)."""

    def setUp(self):
        super().setUp()
        self.backend_port = _free_port()
        backend = wsgi_server.start(echo_app, HOST, self.backend_port,
                                    'echo', behind_front_door=True)
        self.addCleanup(backend.server_close)
        self.addCleanup(backend.shutdown)
        self.down_port = _free_port()  # nothing listens there
        self.door = front_door.serve(HOST, 0, {
            '/compute': self.backend_port, '/gone': self.down_port})
        self.addCleanup(self.door.server_close)
        self.addCleanup(self.door.shutdown)
        self.port = self.door.server_address[1]
        self.conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        self.addCleanup(self.conn.close)

    def request(self, method, path, body=None, headers=None):
        self.conn.request(method, path, body, headers or {})
        response = self.conn.getresponse()
        data = response.read()
        return response, (json.loads(data) if data else None)

    def test_service_sees_itself_mounted_at_the_prefix(self):
        response, seen = self.request(
            'GET', '/compute/v2.1/servers?limit=1',
            headers={'X-Auth-Token': 'tok'})
        self.assertEqual(200, response.status)
        self.assertEqual('/compute', seen['script_name'])
        self.assertEqual('/v2.1/servers', seen['path_info'])
        self.assertEqual('limit=1', seen['query'])
        self.assertEqual('tok', seen['token'])
        # The Host the client used, so links point at the front door.
        self.assertEqual('%s:%d' % (HOST, self.port), seen['host'])
        self.assertEqual('http://%s:%d/compute/v2.1/servers' % (
            HOST, self.port), seen['link'])
        # used up by the server: no middleware applies it twice
        self.assertIsNone(seen['forwarded_prefix'])

    def test_bare_prefix_reaches_the_root(self):
        _, seen = self.request('GET', '/compute')
        self.assertEqual(('/compute', '/'),
                         (seen['script_name'], seen['path_info']))

    def test_bodies_and_status_pass_both_ways(self):
        response, seen = self.request('POST', '/compute/v2.1/x', b'{"a": 1}',
                                      {'Content-Type': 'application/json'})
        self.assertEqual(201, response.status)
        self.assertEqual('{"a": 1}', seen['body'])
        self.assertEqual('http://%s:%d/compute/made' % (HOST, self.port),
                         response.getheader('Location'))
        self.assertEqual(['a=1', 'b=2'],
                         response.headers.get_all('Set-Cookie'))

    def test_chunked_request_body(self):
        # Tempest uploads images chunked.
        self.conn.putrequest('PUT', '/compute/file')
        self.conn.putheader('Transfer-Encoding', 'chunked')
        self.conn.endheaders()
        self.conn.send(b'5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n')
        response = self.conn.getresponse()
        self.assertEqual('hello world', json.loads(response.read())['body'])

    def test_connection_is_kept_alive(self):
        self.request('GET', '/compute/a')
        sock = self.conn.sock
        _, seen = self.request('GET', '/compute/b')
        self.assertIs(sock, self.conn.sock)
        self.assertEqual('/b', seen['path_info'])

    def test_head_has_no_body_but_its_length(self):
        response, data = self.request('HEAD', '/compute/x')
        self.assertEqual(200, response.status)
        self.assertIsNone(data)
        self.assertGreater(int(response.getheader('Content-Length')), 0)
        _, seen = self.request('GET', '/compute/after-head')
        self.assertEqual('/after-head', seen['path_info'])

    def test_client_cannot_choose_the_prefix(self):
        _, seen = self.request('GET', '/compute/x', headers={
            'X-Forwarded-Prefix': '/elsewhere'})
        self.assertEqual('/compute', seen['script_name'])

    def test_unknown_prefix_is_404_naming_the_prefixes(self):
        response, body = self.request('POST', '/image/v2/images', b'{}')
        self.assertEqual(404, response.status)
        self.assertIn('/compute', body['error']['message'])
        # the refused request's body was read: the connection still works
        _, seen = self.request('GET', '/compute/next')
        self.assertEqual('/next', seen['path_info'])

    def test_service_down_is_502(self):
        response, body = self.request('GET', '/gone/x')
        self.assertEqual(502, response.status)
        self.assertIn('/gone', body['error']['message'])

    def test_raw_path_is_passed_as_sent(self):
        raw_port = _free_port()
        _RawBackend.seen = []
        raw = http.server.ThreadingHTTPServer((HOST, raw_port), _RawBackend)
        threading.Thread(target=raw.serve_forever, daemon=True).start()
        self.addCleanup(raw.server_close)
        self.addCleanup(raw.shutdown)
        door = front_door.serve(HOST, 0, {'/placement': raw_port})
        self.addCleanup(door.server_close)
        self.addCleanup(door.shutdown)
        conn = http.client.HTTPConnection(HOST, door.server_address[1],
                                          timeout=10)
        self.addCleanup(conn.close)
        conn.request('GET', '/placement/resource_providers?name=a%2Fb%20c',
                     headers={'X-Auth-Token': 'tok'})
        self.assertEqual(204, conn.getresponse().status)
        path, headers = _RawBackend.seen[0]
        self.assertEqual('/resource_providers?name=a%2Fb%20c', path)
        self.assertEqual('/placement', headers['X-Forwarded-Prefix'])
        self.assertEqual('tok', headers['X-Auth-Token'])


class ServerWithoutFrontDoorTest(testtools.TestCase):
    """Off the front door (every profile but vendor-like), the services'
    server takes no prefix from a client."""

    def test_forwarded_prefix_is_ignored(self):
        port = _free_port()
        server = wsgi_server.start(echo_app, HOST, port, 'echo')
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        self.addCleanup(conn.close)
        conn.request('GET', '/v2.1/x', headers={
            'X-Forwarded-Prefix': '/compute'})
        seen = json.loads(conn.getresponse().read())
        self.assertEqual(('', '/v2.1/x'),
                         (seen['script_name'], seen['path_info']))

    def test_mount_at_forwarded_prefix(self):
        environ = {'HTTP_X_FORWARDED_PREFIX': '/identity/',
                   'SCRIPT_NAME': '', 'PATH_INFO': '/v3'}
        wsgi_server.mount_at_forwarded_prefix(environ)
        self.assertEqual('/identity', environ['SCRIPT_NAME'])
        self.assertNotIn('HTTP_X_FORWARDED_PREFIX', environ)
        environ = {'PATH_INFO': '/v3'}
        wsgi_server.mount_at_forwarded_prefix(environ)
        self.assertNotIn('SCRIPT_NAME', environ)
