"""What a cleanup needs from tempest.conf: admin clients, names, faults.

Tempest's own clients (clients.Manager with the configured admin) and
the suite's placement client, so TLS, endpoint type and region settings
apply exactly as in a run.
"""

import os

from conformance_tests.cleanup import names as names_mod
from conformance_tests.cloud.services.nova import layout

# Server groups show their project from 2.13; nothing else needs more.
COMPUTE_MICROVERSION = '2.13'


class ContextError(Exception):
    pass


class Context(object):
    """Clients are None for a service the cloud does not offer."""

    def __init__(self, names, kept_zones=(), **clients):
        self.names = names
        self.kept_zones = set(kept_zones)
        self.cache = {}
        self.fault = self.cell = None
        for attr in ('servers_client', 'server_groups_client',
                     'flavors_client', 'aggregates_client', 'quotas_client',
                     'users_client', 'projects_client', 'placement_client',
                     'clustering_client', 'leases_client', 'hosts_client',
                     'enrolled_marker'):
            setattr(self, attr, None)
        for attr, value in clients.items():
            setattr(self, attr, value)


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

    from conformance_tests.common import faults
    from conformance_tests.services.placement import topology_client

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
    ctx = Context(run_names, kept_zones=_kept_zones(conf),
                  users_client=manager.users_v3_client,
                  projects_client=manager.projects_client)
    if conf.service_available.nova:
        ctx.servers_client = manager.servers_client
        ctx.server_groups_client = manager.server_groups_client
        ctx.flavors_client = manager.flavors_client
        ctx.aggregates_client = manager.aggregates_client
        ctx.quotas_client = manager.quotas_client
    if conf.service_available.placement:
        ctx.placement_client = topology_client.TopologyClient(
            manager.auth_provider, conf.placement.catalog_type,
            conf.placement.region or conf.identity.region,
            endpoint_type=conf.placement.endpoint_type)
    if conf.service_available.senlin:
        from conformance_tests.api.clustering import base as clustering
        ctx.clustering_client = clustering.clustering_client_for(manager)
    if conf.service_available.blazar:
        _add_reservation(ctx, manager, conf)
    ctx.fault = faults.backend(conf)
    ctx.cell = conf.conformance.cell_down_name or None
    return ctx


def _add_reservation(ctx, manager, conf):
    from conformance_tests.cleanup import reservation as cleanup_reservation
    ctx.leases_client = manager.conformance_reservation_v1.LeasesClient()
    ctx.hosts_client = manager.conformance_reservation_v1.HostsClient()
    ctx.enrolled_marker = cleanup_reservation.enrolled_marker(
        conf.conformance.resource_prefix)


def _kept_zones(conf):
    """The zones the tests are pointed at were made by an operator (on
    the embedded cloud: the launcher), never by a run."""
    zones = {conf.conformance.anti_affinity_zone,
             conf.conformance.cell_down_zone} | set(layout.ZONES)
    return zones - {''}
