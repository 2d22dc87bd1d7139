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

"""devstack/proxy: the node's only way out reaches the hosts it is given
and refuses the others with a line naming them.

The proxy listens in the network namespace of the process it is given;
here that is this test's own, so the same code path (setns there and
back) runs without a node.
"""

import http.server
import os
import socket
import threading

import testtools

from conformance_tests.devstack import proxy


class _Origin(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ('origin saw %s, Connection: %s' % (
            self.path, self.headers.get('Connection'))).encode()
        self.send_response(200)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _serve(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread


class ProxyTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        if not os.access('/proc/self/ns/net', os.R_OK):
            self.skipTest('no /proc/self/ns/net to enter')
        self.origin = http.server.HTTPServer(('127.0.0.1', 0), _Origin)
        self.addCleanup(self.origin.server_close)
        self.addCleanup(self.origin.shutdown)
        _serve(self.origin)
        self.log = open(os.devnull, 'w')
        self.addCleanup(self.log.close)
        try:
            server = proxy.listen_in(os.getpid(), 0)
        except OSError as e:
            self.skipTest('cannot setns here: %s' % e)
        self.addCleanup(server.close)
        self.port = server.getsockname()[1]
        self.proxy = proxy.Proxy(['127.0.0.1'], self.log)
        thread = threading.Thread(target=self.proxy.serve,
                                  args=(server, os.getpid()), daemon=True)
        thread.start()

    def _ask(self, request):
        with socket.create_connection(('127.0.0.1', self.port), 10) as s:
            s.sendall(request.encode())
            data = b''
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return data.decode()
                data += chunk

    def test_an_allowed_host_is_relayed_with_connection_close(self):
        answer = self._ask(
            'GET http://127.0.0.1:%d/simple/pbr/ HTTP/1.1\r\nHost: '
            '127.0.0.1\r\nProxy-Connection: keep-alive\r\n\r\n' %
            self.origin.server_port)
        self.assertIn('200', answer.splitlines()[0])
        self.assertIn('origin saw /simple/pbr/, Connection: close', answer)

    def test_another_host_is_refused_naming_the_allowed_ones(self):
        answer = self._ask('GET http://github.com/x HTTP/1.1\r\nHost: '
                           'github.com\r\n\r\n')
        self.assertIn('403', answer.splitlines()[0])
        self.assertIn('github.com is not a registry this machine reaches; '
                      'allowed: 127.0.0.1', answer)

    def test_connect_to_another_host_is_refused(self):
        answer = self._ask('CONNECT github.com:443 HTTP/1.1\r\n\r\n')
        self.assertIn('403', answer.splitlines()[0])
