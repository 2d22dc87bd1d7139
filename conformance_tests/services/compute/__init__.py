"""Compute clients the suite registers with Tempest (plugin.py).

Tempest imports this module and builds each class named in ``__all__``
for every client manager: ``os_primary.conformance_compute_v2.X()``.
"""

from conformance_tests.services.compute.raw_client import RawComputeClient

__all__ = ['RawComputeClient']
