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

"""Real blazar 18 (API and manager) in one process.

What blazar-api and blazar-manager do at start, in one interpreter:
oslo.config from the descriptor's blazar.conf, ``setup_db()`` (blazar's
alembic migrations do not run on SQLite; setup_db creates the same
tables from the models), the manager's RPC server on oslo.messaging's
``fake://`` transport (in-process, shared by the API's RPC client because
blazar keeps one transport per process), and the v1 Flask API behind
keystonemiddleware.

One deployment tuning, not a behaviour change: the manager polls for due
lease events every EVENT_INTERVAL seconds (a module constant, 10, not a
config option); 1 s lets a lease starting `now` start within seconds.
"""

import logging

EVENT_POLL_SECONDS = 1

LOG = logging.getLogger(__name__)


def _configure(conf_file):
    from oslo_config import cfg

    # Every module that registers command-line options must be imported
    # before the config is parsed (oslo.config refuses them after).
    from blazar.api.v1 import app  # noqa: F401
    from blazar import config  # noqa: F401
    from blazar.manager import service  # noqa: F401
    cfg.CONF(['--config-file', conf_file], project='blazar',
             prog='blazar-manager')
    from blazar.utils import service as service_utils
    service_utils.prepare_service([])


def start_manager():
    """Start blazar-manager's service (RPC server and event timer)."""
    from blazar.manager import service as manager_service
    manager_service.EVENT_INTERVAL = EVENT_POLL_SECONDS
    manager = manager_service.ManagerService()
    manager.start()
    return manager


def write_ahead_log(url):
    """Put the SQLite file of ``url`` (blazar's [database] connection) in
    write-ahead-log mode; another database is left as it is.

    Under eventlet (blazar < 18) the API and the manager share one OS
    thread. oslo.db begins every transaction explicitly, so a green thread
    that has read in a transaction still holds SQLite's shared lock when
    it yields; another's commit then waits out SQLite's busy timeout in
    the only OS thread, where the reader can never run to release it, and
    fails with "database is locked" (2024.1's first host enrolment did,
    every time). In WAL mode a reader does not block a writer. A setting
    of the file, as nova's harness keeps its cell databases: no query,
    transaction or answer changes.
    """
    prefix = 'sqlite:///'
    path = url[len(prefix):] if url.startswith(prefix) else ''
    if not path:
        return
    import sqlite3
    connection = sqlite3.connect(path)
    try:
        connection.execute('PRAGMA journal_mode=WAL')
    finally:
        connection.close()


def build(proc, service_name, eventlet_mode=False):
    """Return blazar's API WSGI app, its manager running."""
    _configure(proc.config(service_name))
    from blazar.db import api as db_api
    from blazar.notification import notifier
    db_api.setup_db()
    if eventlet_mode:
        from oslo_config import cfg
        write_ahead_log(cfg.CONF.database.connection)
    notifier.init()
    # The mutant and, in the spec-reference profile, blazar's references.
    proc.apply_mutants(service_name)
    # The manager's plugins authenticate to keystone when they load.
    proc.wait_for_catalog()
    start_manager()
    from blazar.api.v1 import app as v1_app
    return v1_app.make_app()
