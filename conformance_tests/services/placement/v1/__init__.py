"""Placement clients the suite registers with Tempest (plugin.py).

Tempest imports this module and builds each class named in ``__all__``
for every client manager: ``os_admin.conformance_placement_v1.X()``.
"""

from oslo_config import cfg

from conformance_tests.services import api
from conformance_tests.services.placement.v1 import cleanup
from conformance_tests.services.placement.v1.topology_client import (
    TopologyClient)
from conformance_tests.services.placement.v1.usages_client import UsagesClient

__all__ = ['TopologyClient', 'UsagesClient']


def _clients(manager, conf):
    if not conf.service_available.placement:
        return {}
    return {'placement_client':
            manager.conformance_placement_v1.TopologyClient()}


class Placement(api.Api):
    name = 'conformance_placement_v1'
    # Tempest owns 'placement': ours must not clash.
    service_version = 'conformance-placement.v1'
    client_module = __name__
    config_group = 'placement'
    catalog_type = 'placement'
    endpoint_type = 'public'    # Tempest's default in [placement]
    microversions = True
    service_option = cfg.BoolOpt(
        'placement', default=True,
        help='Whether the placement API is expected to be available.')
    _stage = api.STAGES['placement']
    cleanup = (
        # Providers deepest first, then what no provider uses any more.
        api.CleanupStep(_stage, cleanup.Providers(), 'placement_client',
                        _clients, 'placement'),
        api.CleanupStep(_stage + 1, cleanup.ResourceClasses(),
                        'placement_client', _clients, 'placement'),
        api.CleanupStep(_stage + 2, cleanup.Traits(), 'placement_client',
                        _clients, 'placement'),
    )


API = Placement()
