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

"""Compute clients the suite registers with Tempest (plugin.py).

Tempest imports this module and builds each class named in ``__all__``
for every client manager: ``os_primary.conformance_compute_v2.X()``.
"""

from conformance_tests.services import api
from conformance_tests.services.compute.v2 import cleanup
from conformance_tests.services.compute.v2 import cleanup_cells
from conformance_tests.services.compute.v2.raw_client import RawComputeClient

__all__ = ['RawComputeClient']

# Tempest's own compute clients, which the cleanup kinds use.
_TEMPEST_CLIENTS = ('servers_client', 'server_groups_client',
                    'flavors_client', 'aggregates_client', 'quotas_client')


def _clients(manager, conf):
    if not conf.service_available.nova:
        return {}
    return {name: getattr(manager, name) for name in _TEMPEST_CLIENTS}


def _fault(manager, conf):
    """The suite's fault interface (common/faults.py) and the cell a
    disruptive test takes down: brought back before anything else."""
    from conformance_tests.common import faults
    return {'fault': faults.backend(conf),
            'cell': conf.conformance.cell_down_name or None}


class Compute(api.Api):
    name = 'conformance_compute_v2'
    # Tempest owns 'compute': ours must not clash.
    service_version = 'conformance-compute.v2'
    client_module = __name__
    config_group = 'compute'
    catalog_type = 'compute'
    tempest_flag = ('nova', True)
    microversions = True
    _stage = api.STAGES
    cleanup = (
        # No service name: without a fault back end nothing is said.
        api.CleanupStep(_stage['cells'], cleanup_cells.Cells(), 'fault',
                        _fault, None),
        api.CleanupStep(_stage['servers'], cleanup.Servers(),
                        'servers_client', _clients, 'nova'),
        api.CleanupStep(_stage['servers'] + 1, cleanup.ServerGroups(),
                        'server_groups_client', _clients, 'nova'),
        api.CleanupStep(_stage['compute'], cleanup.Flavors(),
                        'flavors_client', _clients, 'nova'),
        api.CleanupStep(_stage['compute'] + 1, cleanup.Aggregates(),
                        'aggregates_client', _clients, 'nova'),
        api.CleanupStep(_stage['compute'] + 2, cleanup.Quotas(),
                        'quotas_client', _clients, 'nova'),
    )


API = Compute()
