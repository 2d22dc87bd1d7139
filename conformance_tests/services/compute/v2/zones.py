"""Availability zones as nova's admin API shows them."""


def available_hosts(az_client, zone):
    """Sorted hosts of ``zone`` whose nova-compute is available; [] for a
    zone nova does not know. ``az_client`` is Tempest's (admin) client."""
    zones = az_client.list_availability_zones(detail=True)
    for info in zones['availabilityZoneInfo']:
        if info['zoneName'] == zone:
            return sorted(
                host for host, services in (info['hosts'] or {}).items()
                if services.get('nova-compute', {}).get('available'))
    return []
