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

"""What a cleanup needs from tempest.conf: admin clients, names, faults.

Each cleanup step's API builds its clients from one admin client manager
(Tempest's own and the suite's registered ones), so TLS, endpoint type,
region and timeout settings apply exactly as in a run.
"""

import os

from conformance_tests.cleanup import names as names_mod
from conformance_tests.cleanup import plan
from conformance_tests.cloud.services.nova import layout

# Server groups show their project from 2.13; nothing else needs more.
COMPUTE_MICROVERSION = '2.13'


class ContextError(Exception):
    pass


class Context(object):
    """What the cleanup steps need (services/api.py's CleanupStep): a
    client a step needs is absent (None) when the cloud does not offer
    its service."""

    def __init__(self, names, kept_zones=(), **clients):
        self.names = names
        self.kept_zones = set(kept_zones)
        self.cache = {}
        self.fault = self.cell = None
        for attr, value in clients.items():
            setattr(self, attr, value)

    def __getattr__(self, name):
        # Only reached for attributes never set: a client of a service
        # the cloud does not offer.
        if name.startswith('_'):
            raise AttributeError(name)
        return None


def load_conf(conf_path):
    """Tempest's CONF read from conf_path (before anything reads it)."""
    os.environ['TEMPEST_CONFIG_DIR'] = os.path.dirname(conf_path)
    os.environ['TEMPEST_CONFIG'] = os.path.basename(conf_path)
    from tempest import config
    try:
        config.CONF.conformance.resource_prefix
    except Exception as e:
        raise ContextError('cannot read %s as a tempest.conf with the '
                           'conformance plugin: %s' % (conf_path, str(
                               e).splitlines()[0] if str(e) else e))
    return config.CONF


def kept_names(conf):
    """Accounts the run used but did not make: never removed."""
    return {conf.auth.admin_username, conf.auth.admin_project_name}


def from_conf(conf):
    from tempest import clients
    from tempest.common import credentials_factory
    from tempest.lib import exceptions as lib_exc

    try:
        creds = credentials_factory.get_configured_admin_credentials()
        manager = clients.Manager(creds)
        manager.auth_provider.get_token()
    except (lib_exc.InvalidConfiguration, lib_exc.InvalidCredentials):
        # The exception's text may quote the credentials: not shown.
        raise ContextError('no usable admin credentials in tempest.conf: '
                           'set [auth] admin_username, admin_password and '
                           'admin_project_name')
    except Exception as e:  # refused, unreachable, 401: all one line
        raise ContextError('cannot authenticate as the admin at %s: %s' % (
            conf.identity.uri_v3, ' '.join(str(e).split())[:200]))
    run_names = names_mod.RunNames(
        conf.conformance.resource_prefix, names_mod.test_class_names(),
        dynamic_prefixes=[conf.resource_name_prefix], kept=kept_names(conf))
    ctx = Context(run_names, kept_zones=_kept_zones(conf))
    # No cleanup step removes images (the suite makes none); the inventory
    # (inventory/listing.py) still lists them.
    if conf.service_available.glance:
        ctx.images_client = manager.image_client_v2
    for step in plan.order():
        if getattr(ctx, step.needs) is None:
            for attr, value in step.make(manager, conf).items():
                setattr(ctx, attr, value)
    return ctx


def _kept_zones(conf):
    """The zones the tests are pointed at were made by an operator (on
    the embedded cloud: the launcher), never by a run."""
    zones = {conf.conformance.anti_affinity_zone,
             conf.conformance.cell_down_zone} | set(layout.ZONES)
    return zones - {''}
