"""Placement clients the suite registers with Tempest (plugin.py).

Tempest imports this module and builds each class named in ``__all__``
for every client manager: ``os_admin.conformance_placement_v1.X()``.
"""

from conformance_tests.services.placement.topology_client import (
    TopologyClient)
from conformance_tests.services.placement.usages_client import UsagesClient

__all__ = ['TopologyClient', 'UsagesClient']
