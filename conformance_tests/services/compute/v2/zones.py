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
