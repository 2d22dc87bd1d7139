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

"""A small WSGI server for the embedded cloud's services.

wsgiref handles one request at a time. That is a feature here: keystone and
placement run on SQLite, which answers concurrent writers with "database is
locked", so serialising requests per service is what keeps the cloud honest
rather than flaky. Access lines go to the service's log file, never to the
terminal; they hold method, path and status only (no headers, so no tokens).

Behind the front door (front_door.py, the ``front_door`` setting) a
server mounts each request at the path prefix the front door names in
X-Forwarded-Prefix, as uwsgi mounts an app where Apache proxies it,
with the scheme the front door names in X-Forwarded-Proto.
"""

import io
import logging
import socketserver
import sys
import threading
from wsgiref import simple_server

LOG = logging.getLogger('conformance.cloud.access')
_MAX_LINE = 65537


class _QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, fmt, *args):
        LOG.info('%s %s', self.address_string(), fmt % args)

    def get_stderr(self):
        return sys.stderr


class _Server(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    """Accepts in a thread per request but runs the app under one lock."""
    daemon_threads = True
    allow_reuse_address = True


def dechunk(environ):
    """Give the app a chunked request body as a plain one.

    wsgiref passes ``Transfer-Encoding: chunked`` bodies through undecoded
    and without CONTENT_LENGTH; apps (glance's image upload, which Tempest
    sends chunked) then block reading to the end of a stream the client
    keeps open. The bodies here are small: read them whole, before the
    service lock, so a slow client holds up no one.
    """
    if environ.get('HTTP_TRANSFER_ENCODING', '').lower() != 'chunked':
        return
    stream, body = environ['wsgi.input'], io.BytesIO()
    while True:
        size_line = stream.readline(_MAX_LINE)
        if not size_line:
            break  # the client went away mid-body
        size = int(size_line.split(b';', 1)[0].strip() or b'0', 16)
        if size == 0:
            while stream.readline(_MAX_LINE).strip():
                pass  # trailer fields, up to the blank line
            break
        body.write(stream.read(size))
        stream.readline(_MAX_LINE)  # the CRLF closing the chunk
    del environ['HTTP_TRANSFER_ENCODING']
    environ['CONTENT_LENGTH'] = str(body.tell())
    body.seek(0)
    environ['wsgi.input'] = body


def mount_at_forwarded_prefix(environ):
    """Make the prefix the front door stripped (X-Forwarded-Prefix) the
    request's SCRIPT_NAME: the app then builds its links and version
    documents under it. The header is used up, so no middleware of the
    app applies it a second time."""
    prefix = environ.pop('HTTP_X_FORWARDED_PREFIX', '').rstrip('/')
    if prefix:
        environ['SCRIPT_NAME'] = prefix + environ.get('SCRIPT_NAME', '')
    # The scheme the client used at the front door (https with the tls
    # setting), as uwsgi takes it from the proxy: links say https too.
    if environ.get('HTTP_X_FORWARDED_PROTO') in ('http', 'https'):
        environ['wsgi.url_scheme'] = environ['HTTP_X_FORWARDED_PROTO']


def _make(app, host, port, serialise=True, behind_front_door=False):
    lock = threading.Lock()

    def guarded(environ, start_response):
        dechunk(environ)
        if behind_front_door:
            mount_at_forwarded_prefix(environ)
        if not serialise:
            return app(environ, start_response)
        with lock:
            # Materialise the body inside the lock: a lazy iterator would
            # otherwise run the app's code after the lock is released.
            return list(app(environ, start_response))

    return simple_server.make_server(
        host, port, guarded, server_class=_Server,
        handler_class=_QuietHandler)


def start(app, host, port, name, serialise=True, behind_front_door=False):
    """Bind host:port now (a taken port fails here, loudly) and serve
    ``app`` from a daemon thread; the main thread owns signals.
    ``behind_front_door``: honour the front door's X-Forwarded-Prefix."""
    server = _make(app, host, port, serialise, behind_front_door)
    threading.Thread(target=server.serve_forever, kwargs={
        'poll_interval': 0.2}, daemon=True, name=name).start()
    return server
