"""Real senlin 16 in one process: API, conductor and engine.

What senlin's three console scripts (senlin-api, senlin-conductor,
senlin-engine) each do at start, done once here: parse senlin.conf,
register the versioned objects, set up oslo.messaging (the fake transport:
every RPC stays in this process), create the schema from senlin's own
models, start the conductor's and the engine's RPC servers, and load
senlin's own paste pipeline (keystonemiddleware, the trust middleware,
the v1 router) as the WSGI app we serve. The health manager is not
started: no seed-002 rule needs it.
"""

import logging

LOG = logging.getLogger(__name__)


def build(proc, service_name):
    from senlin.common import config
    from senlin.common import consts
    from senlin.common import messaging
    import senlin.conf
    from senlin import objects

    conf = senlin.conf.CONF
    config.parse_args(['senlin', '--config-file',
                       proc.config(service_name)], 'senlin')
    from oslo_log import log as oslo_logging
    oslo_logging.setup(conf, 'senlin')
    objects.register_all()
    messaging.setup()
    _create_schema()

    # The mutant (and under spec-reference every reference) patches
    # senlin's classes before anything is built from them.
    proc.apply_mutants(service_name)

    # The engine authenticates with keystone when it first acts; the
    # conductor never does at start. Still: nothing runs before the
    # launcher has registered the senlin user.
    proc.wait_for_catalog()

    from senlin.conductor import service as conductor
    from senlin.engine import service as engine
    for svc in (conductor.ConductorService(conf.host, consts.CONDUCTOR_TOPIC),
                engine.EngineService(conf.host, consts.ENGINE_TOPIC)):
        svc.start()
        LOG.info('%s started', svc.service_name)

    from senlin.api.common import wsgi
    return wsgi.load_paste_app('senlin-api')


def _create_schema():
    # From senlin's own models, on senlin's own engine: its alembic
    # migrations open an engine of their own, which for in-memory SQLite
    # is another, empty database.
    from senlin.db.sqlalchemy import api as db_api
    from senlin.db.sqlalchemy import models
    models.BASE.metadata.create_all(db_api.get_engine())
