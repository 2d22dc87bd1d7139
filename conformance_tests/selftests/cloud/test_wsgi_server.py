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

"""cloud/wsgi_server.py: request bodies reach the services whole."""

import io

import testtools

from conformance_tests.cloud import wsgi_server


def _environ(raw, chunked=True):
    environ = {'wsgi.input': io.BytesIO(raw)}
    if chunked:
        environ['HTTP_TRANSFER_ENCODING'] = 'chunked'
    return environ


class DechunkTest(testtools.TestCase):

    def test_chunks_become_a_plain_body(self):
        environ = _environ(b'5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n')
        wsgi_server.dechunk(environ)
        self.assertEqual(b'hello world', environ['wsgi.input'].read())
        self.assertEqual('11', environ['CONTENT_LENGTH'])
        self.assertNotIn('HTTP_TRANSFER_ENCODING', environ)

    def test_binary_data_and_trailers(self):
        data = bytes(range(256)) * 3
        raw = b'%x\r\n%s\r\n0\r\nX-Trailer: 1\r\n\r\n' % (len(data), data)
        environ = _environ(raw)
        wsgi_server.dechunk(environ)
        self.assertEqual(data, environ['wsgi.input'].read())

    def test_empty_body(self):
        environ = _environ(b'0\r\n\r\n')
        wsgi_server.dechunk(environ)
        self.assertEqual('0', environ['CONTENT_LENGTH'])

    def test_plain_body_is_left_alone(self):
        stream = io.BytesIO(b'abc')
        environ = {'wsgi.input': stream, 'CONTENT_LENGTH': '3'}
        wsgi_server.dechunk(environ)
        self.assertIs(stream, environ['wsgi.input'])
        self.assertEqual('3', environ['CONTENT_LENGTH'])

    def test_client_gone_mid_body(self):
        environ = _environ(b'5\r\nhel')
        wsgi_server.dechunk(environ)
        self.assertEqual(b'hel', environ['wsgi.input'].read())
