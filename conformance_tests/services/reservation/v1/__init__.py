"""Reservation (blazar) v1 API clients, the Tempest way (RestClient)."""

from conformance_tests.services.reservation.v1.hosts_client import \
    HostsClient
from conformance_tests.services.reservation.v1.leases_client import \
    LeasesClient

__all__ = ['HostsClient', 'LeasesClient']
