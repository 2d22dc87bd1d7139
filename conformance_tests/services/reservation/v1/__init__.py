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

"""Reservation (blazar) v1 API clients, the Tempest way (RestClient).

Tempest imports this module and builds each class named in ``__all__``
for every client manager (plugin.py), with [conformance_reservation]'s
catalog type, endpoint type and region and Tempest's TLS and timeout
settings: ``os_primary.conformance_reservation_v1.LeasesClient()``.
"""

from oslo_config import cfg

from conformance_tests.services import api
from conformance_tests.services.reservation.v1 import cleanup
from conformance_tests.services.reservation.v1.hosts_client import \
    HostsClient
from conformance_tests.services.reservation.v1.leases_client import \
    LeasesClient

__all__ = ['HostsClient', 'LeasesClient']

# The reservation (blazar) API's client settings. Tempest has no group for
# it; blazar-tempest-plugin's [resource_reservation] is not reused so the
# two plugins can be installed side by side without an option clash.
group = cfg.OptGroup(
    name='conformance_reservation',
    title='Reservation (blazar) API client options of the conformance suite')

options = [
    cfg.StrOpt('catalog_type', default='reservation',
               help='Catalog type of the reservation (blazar) service.'),
    cfg.StrOpt('endpoint_type', default='publicURL',
               choices=['public', 'admin', 'internal', 'publicURL',
                        'adminURL', 'internalURL'],
               help='The endpoint type to use for the reservation service.'),
    cfg.StrOpt('region', default='',
               help='The reservation region name to use. Empty: '
                    '[identity] region.'),
]


def _leases(manager, conf):
    if not conf.service_available.blazar:
        return {}
    return {'leases_client':
            manager.conformance_reservation_v1.LeasesClient()}


def _hosts(manager, conf):
    if not conf.service_available.blazar:
        return {}
    return {'hosts_client': manager.conformance_reservation_v1.HostsClient(),
            'enrolled_marker': cleanup.enrolled_marker(
                conf.conformance.resource_prefix)}


class Reservation(api.Api):
    name = 'conformance_reservation_v1'
    # blazar-tempest-plugin owns 'reservation': ours must not clash.
    service_version = 'conformance-reservation.v1'
    client_module = __name__
    config_group = group.name
    catalog_type = 'reservation'
    service_option = cfg.BoolOpt(
        'blazar', default=False,
        help='Whether the reservation API (blazar, with blazar-nova\'s '
             'BlazarFilter in nova\'s scheduler) is expected to be '
             'available (seed 004).')
    service_plugin_option = ('blazar_tempest_plugin.config',
                             'service_option')
    option_groups = ((group, options),)
    # Most clouds have no blazar: nothing to say then. Ending a lease
    # gives its host back; a host leaves blazar after its servers.
    cleanup = (
        api.CleanupStep(api.STAGES['leases'], cleanup.Leases(),
                        'leases_client', _leases, None),
        api.CleanupStep(api.STAGES['enrolments'], cleanup.Hosts(),
                        'hosts_client', _hosts, None),
    )


API = Reservation()
