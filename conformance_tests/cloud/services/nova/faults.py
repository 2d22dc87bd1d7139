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

"""Cell outages in the embedded nova, and the control endpoint to cause them.

Taking a cell "down" makes its database unreachable to every nova code
path in the process: the cell's database context manager is replaced by
one whose every use raises oslo.db's DBConnectionError, both where nova's
harness maps cells to databases and in nova's own per-cell cache. The
API's scatter-gather, the scheduler's host manager, quota counting and the
cell's own computes then all fail the way they fail when an operator's
cell database is unreachable. Bringing it up restores the real manager.

The same endpoint leaves an instance mapping without its user_id, as a
deployment has it before `nova-manage db online_data_migrations` ran
populate_user_id, and runs that migration (seed 001's legacy-count
fallback). Unmigrating also forgets which projects nova found migrated
(nova.quota's two caches of that): a nova process that starts on such a
deployment has found none yet, and the caches only ever remember "all
migrated", which a mapping made unmigrated later would never reach.

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


class UserIdMigration(object):
    """An instance mapping's user_id taken away, and nova's own online
    data migration that puts it back."""

    def unmigrate(self, instance_uuid):
        from nova import context as nova_context
        from nova.db.api import api as api_db_api
        from nova.db.api import models as api_models
        from nova import quota

        @api_db_api.context_manager.writer
        def null_user_id(context):
            mapping = context.session.query(
                api_models.InstanceMapping).filter_by(
                    instance_uuid=instance_uuid).first()
            if mapping is None:
                raise KeyError(instance_uuid)
            mapping.user_id = None
            return mapping.project_id

        project_id = null_user_id(nova_context.get_admin_context())
        quota.UID_QFD_POPULATED_CACHE_ALL = False
        quota.UID_QFD_POPULATED_CACHE_BY_PROJECT.discard(project_id)
        return {'instance_uuid': instance_uuid, 'project_id': project_id,
                'user_id': None}

    def populate_user_id(self):
        """What `nova-manage db online_data_migrations` runs."""
        from nova import context as nova_context
        from nova.objects import instance_mapping

        found, done = instance_mapping.populate_user_id(
            nova_context.get_admin_context(), 1000)
        return {'found': found, 'done': done}


def control_app(outages, token, migration=None, notifications=None):
    """POST /cells/<name>/down|up, GET /cells; POST
    /instance-mappings/<uuid>/unmigrate and POST
    /online-data-migrations/populate_user_id; GET
    /notifications/<event_type> (the server group notifications nova
    sent, notifications.py)."""
    migration = migration or UserIdMigration()
    if notifications is None:
        from conformance_tests.cloud.services.nova import notifications

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
        if (len(parts) == 3 and parts[0] == 'instance-mappings' and
                parts[2] == 'unmigrate' and method == 'POST'):
            try:
                return reply('200 OK', migration.unmigrate(parts[1]))
            except KeyError:
                return reply('404 Not Found', {
                    'error': 'no instance mapping of %r' % parts[1]})
        if (parts == ['online-data-migrations', 'populate_user_id'] and
                method == 'POST'):
            return reply('200 OK', migration.populate_user_id())
        if (len(parts) == 2 and parts[0] == 'notifications' and
                method == 'GET'):
            return reply('200 OK', {
                'notifications': notifications.sent(parts[1])})
        return reply('404 Not Found', {'error': 'unknown control request'})

    return app
