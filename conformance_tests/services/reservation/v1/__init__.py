"""Reservation (blazar) v1 API clients, the Tempest way (RestClient).

Tempest imports this module and builds each class named in ``__all__``
for every client manager (plugin.py), with [conformance_reservation]'s
catalog type, endpoint type and region and Tempest's TLS and timeout
settings: ``os_primary.conformance_reservation_v1.LeasesClient()``.
"""

from conformance_tests.services.reservation.v1.hosts_client import \
    HostsClient
from conformance_tests.services.reservation.v1.leases_client import \
    LeasesClient

__all__ = ['HostsClient', 'LeasesClient']
