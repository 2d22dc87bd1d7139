"""Cell outages in the embedded nova, and the control endpoint to cause them.

Taking a cell "down" makes its database unreachable to every nova code
path in the process: the cell's database context manager is replaced by
one whose every use raises oslo.db's DBConnectionError, both where nova's
harness maps cells to databases and in nova's own per-cell cache. The
API's scatter-gather, the scheduler's host manager, quota counting and the
cell's own computes then all fail the way they fail when an operator's
cell database is unreachable. Bringing it up restores the real manager.

The control endpoint listens on loopback only and wants the control token
from the cloud's secrets file in X-Conformance-Control-Token.
"""

import hmac
import threading

from conformance_tests.cloud import http

CONTROL_HEADER = 'HTTP_X_CONFORMANCE_CONTROL_TOKEN'


class _UnreachableDatabase(object):
    """Stands in for a cell's enginefacade context manager while down."""

    def __init__(self, cell_name):
        self.cell_name = cell_name

    def __getattr__(self, name):
        from oslo_db import exception as db_exc
        raise db_exc.DBConnectionError(
            'cell %s database is unreachable (conformance fault)' %
            self.cell_name)


class CellOutages(object):
    def __init__(self, cell_databases, cell_mappings):
        self.cell_databases = cell_databases  # nova's CellDatabases fixture
        self.cell_mappings = cell_mappings    # name -> CellMapping
        self.saved = {}                       # name -> real context manager
        self.lock = threading.Lock()

    def status(self):
        return {name: ('down' if name in self.saved else 'up')
                for name in sorted(self.cell_mappings) if name != 'cell0'}

    def _mapping(self, name):
        if name not in self.cell_mappings or name == 'cell0':
            raise KeyError(name)
        return self.cell_mappings[name]

    def down(self, name):
        from nova import context as nova_context
        cell = self._mapping(name)
        with self.lock:
            if name in self.saved:
                return
            managers = self.cell_databases._ctxt_mgrs
            self.saved[name] = managers[cell.database_connection]
            unreachable = _UnreachableDatabase(name)
            managers[cell.database_connection] = unreachable
            cached = nova_context.CELL_CACHE.get(cell.uuid)
            if cached:
                nova_context.CELL_CACHE[cell.uuid] = (unreachable, cached[1])

    def up(self, name):
        from nova import context as nova_context
        cell = self._mapping(name)
        with self.lock:
            real = self.saved.pop(name, None)
            if real is None:
                return
            self.cell_databases._ctxt_mgrs[cell.database_connection] = real
            cached = nova_context.CELL_CACHE.get(cell.uuid)
            if cached:
                nova_context.CELL_CACHE[cell.uuid] = (real, cached[1])


def control_app(outages, token):
    """POST /cells/<name>/down|up, GET /cells."""

    def app(environ, start_response):
        def reply(status, body):
            return http.json_response(start_response, status, body)

        given = environ.get(CONTROL_HEADER, '')
        if not hmac.compare_digest(given.encode(), token.encode()):
            return reply('401 Unauthorized', {'error': 'control token'})
        parts = [p for p in environ.get('PATH_INFO', '').split('/') if p]
        method = environ['REQUEST_METHOD']
        if parts == ['cells'] and method == 'GET':
            return reply('200 OK', {'cells': outages.status()})
        if (len(parts) == 3 and parts[0] == 'cells' and method == 'POST'
                and parts[2] in ('down', 'up')):
            try:
                getattr(outages, parts[2])(parts[1])
            except KeyError:
                return reply('404 Not Found', {
                    'error': 'no cell %r; cells: %s' % (
                        parts[1], ', '.join(outages.status()))})
            return reply('200 OK', {'cells': outages.status()})
        return reply('404 Not Found', {'error': 'unknown control request'})

    return app
