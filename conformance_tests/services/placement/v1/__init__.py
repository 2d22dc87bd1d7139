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
