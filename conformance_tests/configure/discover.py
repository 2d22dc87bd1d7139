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

"""What the suite needs of tempest.conf and the cloud's API can tell.

Reads the cloud as the tempest.conf python-tempestconf wrote configures
it (preflight's HTTP client and credential reading: the same TLS, proxy
and timeout rules as the run). Each finding is a value and the evidence
that chose it, which `conformance config` prints beside the option. The
choosing is in pure functions (zone_for_scenarios, preemptible_hosts,
drs_hypervisor, service_flags) so the self-tests can hold them to their
rules without a cloud.
"""

import collections

from conformance_tests.preflight import conf as conf_mod
from conformance_tests.preflight import endpoints
from conformance_tests.preflight import http as http_mod
from conformance_tests.preflight import identity
from conformance_tests.services.reservation import leases

# Zones and hypervisors as nova 2.53 shows them (service.host, uuids).
COMPUTE_HEADERS = {'OpenStack-API-Version': 'compute 2.53'}
#: Zones nova lists for its own services, never a compute's.
INTERNAL_ZONE = 'internal'
#: Blazar's default [nova] aggregate_freepool_name.
DEFAULT_FREEPOOL = 'freepool'

#: What no API can tell: how to set each when the cloud has it.
BY_HAND = (
    ('conformance', 'allow_disruption',
     'true lets the tests that take a cell down, start host leases and '
     'change quotas run (they touch only what they create and the hosts '
     'named for them)'),
    ('conformance', 'cell_down_name',
     'the cell the cell-outage tests take down (nova lists no cells)'),
    ('conformance', 'cell_down_zone',
     'a zone whose hosts are all in cell_down_name'),
    ('conformance', 'fault_cell_down_command',
     'a shell command taking that cell\'s database down ({cell} is its '
     'name)'),
    ('conformance', 'fault_cell_up_command',
     'the command bringing it back'),
    ('conformance', 'quota_usage_from_placement',
     'nova.conf\'s [quota] count_usage_from_placement (default true)'),
    ('conformance', 'preemptible_graceful_shutdown_time',
     'blazar.conf\'s [preemptible] graceful_shutdown_time, where blazar '
     'has it'),
)


#: What the suite itself needs of Tempest, whatever the cloud: (section,
#: option, value, why).
SUITE_SETTINGS = (
    ('auth', 'create_isolated_networks', 'false',
     'the suite boots its servers with networks "none" (2.37): Tempest\'s '
     'network per test class is never used, and creating it needs tenant '
     'networks a cloud may not offer'),
)


class DiscoveryError(Exception):
    """One line: what could not be read and the option to fix."""


Finding = collections.namedtuple('Finding', 'section option value why')


def zone_for_scenarios(zones, excluded):
    """(zone, its hosts) the scheduling scenarios may fill, or None.

    ``zones``: GET /os-availability-zone/detail's availabilityZoneInfo.
    A host counts when its nova-compute is available and active and it
    is not in ``excluded`` (blazar's freepool: nova's blazar filter keeps
    ordinary servers off it). The zone with the most such hosts, at
    least two (anti-affinity needs two); a tie goes to the first name.
    """
    best = None
    for zone in zones:
        name = zone.get('zoneName')
        if not name or name == INTERNAL_ZONE:
            continue
        hosts = sorted(
            host for host, services in (zone.get('hosts') or {}).items()
            if host not in excluded and _compute_up(services))
        if len(hosts) < 2:
            continue
        if best is None or (len(hosts), best[0]) > (len(best[1]), name):
            best = (name, hosts)
    return best


def _compute_up(services):
    compute = (services or {}).get('nova-compute') or {}
    return bool(compute.get('available')) and bool(compute.get('active'))


def preemptible_hosts(hypervisors, enrolled, aggregates, freepool):
    """The nova service hosts blazar has enrolled and holds in its
    freepool aggregate, sorted; each must have exactly one hypervisor
    (one blazar host is one node). LookupError when there is no
    aggregate named ``freepool``."""
    members = next((set(a.get('hosts') or ()) for a in aggregates
                    if a.get('name') == freepool), None)
    if members is None:
        raise LookupError('nova has no aggregate named %s' % freepool)
    nodes = collections.defaultdict(list)
    for hyp in hypervisors:
        nodes[hyp['service']['host']].append(hyp['hypervisor_hostname'])
    found = []
    for host in sorted(members):
        if len(nodes.get(host, ())) != 1:
            continue
        if leases.enrolment(enrolled, nodes[host][0]) is not None:
            found.append(host)
    return found


def drs_hypervisor(hypervisors):
    """The first hypervisor nova lists whose hostname contains "drs"
    (what senlin's affinity policy picks), or None."""
    for hyp in hypervisors:
        name = hyp.get('hypervisor_hostname') or ''
        if 'drs' in name.lower():
            return name
    return None


def service_flags(catalog_types, apis):
    """{[service_available] flag: 'true'/'false'} of the suite's APIs
    (``apis``: (flag name, catalog type)): true when the catalog has the
    type."""
    return {flag: 'true' if catalog_type in catalog_types else 'false'
            for flag, catalog_type in apis}


class Cloud(object):
    """The cloud of a tempest.conf, as its admin (or, without one, its
    [identity] user) sees it."""

    def __init__(self, conf_path):
        self.conf = conf_mod.TempestConf(conf_path)
        self.http = http_mod.Http.from_conf(self.conf)
        self.credential = (conf_mod.admin_credential(self.conf) or
                           _identity_user(self.conf))
        uri_v3 = self.conf.get('identity', 'uri_v3')
        try:
            self.token = identity.authenticate(self.http, uri_v3,
                                               self.credential)
        except identity.IdentityError as e:
            raise DiscoveryError(str(e))
        self.is_admin = (self.credential.is_admin_of_conf and
                         (self.conf.get('identity', 'admin_role') or
                          conf_mod.ADMIN_ROLE) in self.token.roles)

    def types(self):
        return {s.get('type') for s in self.token.catalog}

    def url(self, api):
        lookup = api.catalog(self.conf)
        try:
            endpoint = endpoints.find(self.token.catalog, lookup, None)
        except endpoints.CatalogError as e:
            raise DiscoveryError(str(e))
        return endpoint['url'].rstrip('/'), lookup.service_type

    def get(self, base, path, key, headers=None):
        url = base + path
        try:
            response = self.http.request('GET', url, token=self.token.id,
                                         headers=headers)
        except http_mod.Unreachable as e:
            raise DiscoveryError('GET %s: %s' % (url, e))
        if response.status_code != 200:
            raise DiscoveryError('GET %s answered %d' % (
                url, response.status_code))
        return response.json().get(key) or []


def _identity_user(conf):
    """python-tempestconf's --non-admin account ([identity] username)."""
    username = conf.get('identity', 'username')
    if not username:
        raise DiscoveryError(
            'the tempest.conf names no account ([auth] admin_username or '
            '[identity] username): give python-tempestconf credentials '
            '(--os-cloud or OS_* variables)')
    domain = conf.get('auth', 'default_credentials_domain_name') or \
        conf_mod.DEFAULT_DOMAIN
    return conf_mod.Credential(
        label=username, option='[identity] password',
        source='[identity] username',
        password=conf.get('identity', 'password'), username=username,
        user_domain=conf.get('auth', 'user_domain_name') or domain,
        project_name=conf.get('identity', 'project_name'),
        project_domain=conf.get('auth', 'project_domain_name') or domain)


def discover(conf_path, given, apis):
    """[Finding] for the cloud of ``conf_path``, and [(section, option,
    why)] the suite could not find. ``given``: {(section, option):
    value} the user set (never rediscovered; blazar_freepool read from
    it). ``apis``: the suite's registered APIs (services.all())."""
    cloud = Cloud(conf_path)
    types = cloud.types()
    found = [Finding(*setting) for setting in SUITE_SETTINGS]
    missing = []
    flags = [(flag[0], a.catalog_type)
             for a, flag in ((a, a.available_flag()) for a in apis)
             if flag is not None and a.catalog_type]
    for flag, value in sorted(service_flags(types, flags).items()):
        found.append(Finding('service_available', flag, value,
                             'the catalog %s %s endpoint' % (
                                 'has a' if value == 'true' else 'has no',
                                 dict(flags)[flag])))
    by_type = {a.catalog_type: a for a in apis}
    if not cloud.is_admin:
        if not cloud.conf.get('auth', 'test_accounts_file'):
            missing.append((
                'auth', 'test_accounts_file',
                'a member\'s run needs Tempest\'s pre-provisioned accounts '
                '(without admin, Tempest cannot create its own)'))
        missing.extend(
            ('conformance', option, 'needs admin to list hosts: ' + why)
            for option, why in (
                ('anti_affinity_zone', 'a zone of two or more hosts'),
                ('anti_affinity_zone_hosts', 'how many hosts it has'),
                ('preemptible_hosts', 'blazar\'s freepool hosts')))
        return found, missing
    compute, _ = cloud.url(by_type['compute'])
    hypervisors = cloud.get(compute, '/os-hypervisors/detail', 'hypervisors',
                            COMPUTE_HEADERS)
    freepool_hosts = []
    if 'reservation' in types and 'reservation' in by_type:
        freepool = given.get(('conformance', 'blazar_freepool'),
                             DEFAULT_FREEPOOL)
        reservation, _ = cloud.url(by_type['reservation'])
        enrolled = cloud.get(reservation, '/os-hosts', 'hosts')
        aggregates = cloud.get(compute, '/os-aggregates', 'aggregates',
                               COMPUTE_HEADERS)
        try:
            freepool_hosts = preemptible_hosts(hypervisors, enrolled,
                                               aggregates, freepool)
        except LookupError as e:
            missing.append(('conformance', 'blazar_freepool',
                            '%s: set blazar.conf\'s [nova] '
                            'aggregate_freepool_name' % e))
        else:
            if len(freepool_hosts) >= 2:
                found.append(Finding(
                    'conformance', 'preemptible_hosts',
                    ','.join(freepool_hosts),
                    'enrolled in blazar and in nova\'s %s aggregate' %
                    freepool))
            else:
                missing.append((
                    'conformance', 'preemptible_hosts',
                    'blazar\'s %s holds %d enrolled host(s); the tests need '
                    'two' % (freepool, len(freepool_hosts))))
    zones = cloud.get(compute, '/os-availability-zone/detail',
                      'availabilityZoneInfo', COMPUTE_HEADERS)
    chosen = zone_for_scenarios(zones, set(freepool_hosts))
    if chosen is None:
        missing.append(('conformance', 'anti_affinity_zone',
                        'no zone has two available compute hosts outside '
                        'blazar\'s freepool'))
    else:
        zone, hosts = chosen
        why = 'the zone with the most available compute hosts (%s)' % (
            ', '.join(hosts))
        found.append(Finding('conformance', 'anti_affinity_zone', zone, why))
        found.append(Finding('conformance', 'anti_affinity_zone_hosts',
                             str(len(hosts)), 'the hosts of ' + zone))
    if 'clustering' in types:
        drs = drs_hypervisor(hypervisors)
        if drs:
            found.append(Finding('conformance', 'senlin_drs_hypervisor', drs,
                                 'the first hypervisor nova lists whose '
                                 'hostname contains drs'))
    return found, missing
