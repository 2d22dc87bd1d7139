"""A small WSGI server for the embedded cloud's services.

wsgiref handles one request at a time. That is a feature here: keystone and
placement run on SQLite, which answers concurrent writers with "database is
locked", so serialising requests per service is what keeps the cloud honest
rather than flaky. Access lines go to the service's log file, never to the
terminal; they hold method, path and status only (no headers, so no tokens).
"""

import logging
import socketserver
import sys
import threading
from wsgiref import simple_server

LOG = logging.getLogger('conformance.cloud.access')


class _QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, fmt, *args):
        LOG.info('%s %s', self.address_string(), fmt % args)

    def get_stderr(self):
        return sys.stderr


class _Server(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    """Accepts in a thread per request but runs the app under one lock."""
    daemon_threads = True
    allow_reuse_address = True


def _make(app, host, port, serialise=True):
    lock = threading.Lock()

    def guarded(environ, start_response):
        if not serialise:
            return app(environ, start_response)
        with lock:
            # Materialise the body inside the lock: a lazy iterator would
            # otherwise run the app's code after the lock is released.
            return list(app(environ, start_response))

    return simple_server.make_server(
        host, port, guarded, server_class=_Server,
        handler_class=_QuietHandler)


def start(app, host, port, name, serialise=True):
    """Bind host:port now (a taken port fails here, loudly) and serve
    ``app`` from a daemon thread; the main thread owns signals."""
    server = _make(app, host, port, serialise)
    threading.Thread(target=server.serve_forever, kwargs={
        'poll_interval': 0.2}, daemon=True, name=name).start()
    return server
