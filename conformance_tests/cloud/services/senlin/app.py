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

"""Real senlin 16 in one process: API, conductor and engine.

What senlin's three console scripts (senlin-api, senlin-conductor,
senlin-engine) each do at start, done once here: parse senlin.conf,
register the versioned objects, set up oslo.messaging (the fake transport:
every RPC stays in this process), create the schema from senlin's own
models, start the conductor's and the engine's RPC servers, and load
senlin's own paste pipeline (keystonemiddleware, the trust middleware,
the v1 router) as the WSGI app we serve. The health manager is not
started: no seed-002 rule needs it.

One deployment tuning, not a behaviour change: senlin waits by polling at
intervals written into its code, not its config. A cluster action
re-reads its node actions' status every 3 s, and a node waits for its
server to become ACTIVE by asking nova every 2 s; on this cloud a fake
server is ACTIVE within a second, so each scale-out spent about 5 s
asleep. Both now poll every POLL_SECONDS; what they wait for, and
their timeouts, are senlin's.
"""

import logging

POLL_SECONDS = 0.5

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
    poll_sooner()

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


def poll_sooner(poll_seconds=POLL_SECONDS):
    """Senlin's two waits on nova and on node actions poll every
    ``poll_seconds`` instead of every 2 and 3 s."""
    import eventlet
    from senlin.common import consts
    from senlin.drivers.os import nova_v2
    from senlin.engine.actions import cluster_action

    wait_for_server = nova_v2.NovaClient.wait_for_server

    def wait_sooner(self, server, status=consts.VS_ACTIVE, failures=None,
                    interval=poll_seconds, timeout=None):
        return wait_for_server(self, server, status, failures,
                               min(interval, poll_seconds), timeout)

    nova_v2.NovaClient.wait_for_server = wait_sooner

    wait_for_dependents = cluster_action.ClusterAction._wait_for_dependents

    def wait_for_dependents_sooner(self, *args, **kwargs):
        # Its only sleep is the poll between two reads of the status; the
        # action's pauses and grace periods elsewhere keep their length.
        self._sleep = lambda period: eventlet.sleep(min(period,
                                                        poll_seconds))
        try:
            return wait_for_dependents(self, *args, **kwargs)
        finally:
            del self._sleep

    cluster_action.ClusterAction._wait_for_dependents = (
        wait_for_dependents_sooner)
