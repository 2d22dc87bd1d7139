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

"""nova: API, conductor, scheduler and fake computes in two cells.

Assembled in one process with nova's own shipped harness (app.py);
the fault control endpoint (cell outages, faults.py) is a second
listener of the same process, on loopback, not in the catalog.

Hooks nova offers the other descriptors:
- ``nova.scheduler_filters``: filter names appended to
  ``[filter_scheduler] enabled_filters`` (and to what tempest.conf says
  nova runs with);
- ``nova.conf``: ``{group: {option: value}}`` merged into nova's config
  (a clash with nova's own value is an error, not a silent override);
- ``nova.imports``: modules imported in nova's process before its config
  is applied (a scheduler filter registering its own options);
- ``nova.extra_computes``: ``(host, cell[, destroy_seconds[, by_user]])``
  fake computes started beside the layout's hosts (layout.py, which
  they never change), in no zone's aggregate: hosts a service manages
  itself or needs apart from the seed zones (blazar's freepool hosts,
  senlin's DRS host). ``destroy_seconds`` is how long the host's
  hypervisor takes to destroy a server (fake_compute.py: the fake driver
  takes none, a real one seconds); absent, 0. ``by_user``, ``{user name:
  seconds}``, gives the deletes a user asks a time of their own.

Every compute's hypervisor hostname (its nodename, and the name of its
placement resource provider) is its service host, as nova's fake driver
has it, unless the ``hypervisor_domain`` setting names a domain: then
it is ``<host>.<domain>``, as libvirt reports a vendor's computes
(``hypervisor_hostname()``; fake_compute.py gives each compute its own).
Aggregates and zones take service hosts; what names a hypervisor (a
blazar enrolment, tempest.conf's ``senlin_drs_hypervisor``) takes the
hypervisor hostname.

Every compute has the size of nova's ``MediumFakeDriver`` (10 vCPUs,
8192 MB, 1028 GB), unless the ``host_size`` setting gives one
(``{'vcpus', 'memory_mb', 'local_gb'}``, fake_compute.py): the
vendor-like profile's are the size of real hosts.
"""

import json
import os

from conformance_tests.cloud import http
from conformance_tests.cloud import packages
from conformance_tests.cloud import secrets
from conformance_tests.cloud import service_configs
from conformance_tests.cloud.services import base
from conformance_tests.cloud.services.nova import layout

CONTROL = 'control'
SCHEDULER_FILTERS = 'nova.scheduler_filters'
NOVA_CONF = 'nova.conf'
# nova 34's default [filter_scheduler] enabled_filters, plus the two that
# DevStack enables too (upstream Tempest's multinode tests use their
# hints). Written out so that nova and tempest.conf say the same list.
SCHEDULER_FILTERS_BASE = (
    'ComputeFilter', 'ComputeCapabilitiesFilter', 'ImagePropertiesFilter',
    'ServerGroupAntiAffinityFilter', 'ServerGroupAffinityFilter',
    'SameHostFilter', 'DifferentHostFilter')
NOVA_IMPORTS = 'nova.imports'
EXTRA_COMPUTES = 'nova.extra_computes'
# The microversion the launcher's own set-up requests speak.
SETUP_MICROVERSION = {'OpenStack-API-Version': 'compute 2.64'}


class Nova(base.Service):
    name = 'nova'
    process = 'nova'
    distribution = 'nova'
    listeners = (base.Listener(base.API, '/', '/compute'),
                 # cell outages; answers 401 without the control token
                 base.Listener(CONTROL, '/cells'))
    catalog = (base.CatalogEntry('compute', base.API, '/v2.1'),)
    service_user = True
    depends_on = ('keystone', 'placement')
    # The harness, paste and the API's auth; then the API's routes (every
    # controller, about 190 modules), which paste.deploy would otherwise
    # import in each forked nova while it loads the app.
    imports = ('nova.test', 'nova.tests.fixtures', 'paste.deploy',
               'keystonemiddleware.auth_token',
               'nova.api.openstack.compute.routes')
    mutants_modules = (__name__ + '.mutants',
                       __name__ + '.quota_mutants')
    hooks_offered = {
        SCHEDULER_FILTERS: 'filter names appended to nova\'s '
                           '[filter_scheduler] enabled_filters',
        NOVA_CONF: '{group: {option: value}} merged into nova\'s config',
        NOVA_IMPORTS: 'modules imported before nova\'s config is applied',
        EXTRA_COMPUTES: '(host, cell[, destroy_seconds[, by_user]]) fake '
                        'computes in no zone, beside the layout',
    }
    # zone_computes: hosts in the anti-affinity zone (`cloud up
    # --computes N`, layout.py); the default is today's three.
    # hypervisor_domain: '' (hypervisor hostname = service host) or the
    # domain of every compute's FQDN hypervisor hostname.
    # host_size: None (the fake driver's size) or every compute's
    # {'vcpus': N, 'memory_mb': N, 'local_gb': N}.
    # unified_limits: nova counts quota with keystone's unified limits
    # ([quota] driver UnifiedLimitsDriver; registered limits made at up).
    settings = {'count_usage_from_placement': True,
                'unified_limits': False,
                'zone_computes': layout.DEFAULT_ZONE_COMPUTES,
                'hypervisor_domain': '',
                'host_size': None}

    # -- launcher side ---------------------------------------------------
    def write_config(self, ctx):
        path = os.path.join(ctx.service_dir, 'nova-config.json')
        with secrets.private_open(path) as f:
            json.dump(nova_config(ctx), f)
        return path

    def after_ready(self, ctx):
        self._make_zones(ctx)
        if ctx.settings['unified_limits']:
            register_limits(ctx)
        _, _, root = http.request('GET', ctx.url(self.name) + '/')
        v21 = next(v for v in root['versions'] if v['id'] == 'v2.1')
        ctx.outputs[self.name] = {'microversions': (
            v21['min_version'], v21['version'])}

    def _make_zones(self, ctx):
        """What an operator does once: the zones' aggregates."""
        api = ctx.catalog_url(self.name, self.catalog[0])
        token = ctx.admin_token()
        zones = layout.zones(ctx.settings['zone_computes'])
        for zone, hosts in zones.items():
            _, _, body = http.request('POST', api + '/os-aggregates', {
                'aggregate': {'name': zone, 'availability_zone': zone}},
                token=token, headers=SETUP_MICROVERSION,
                ca_file=ctx.ca_file)
            for host in hosts:
                http.request(
                    'POST', api + '/os-aggregates/%s/action' % (
                        body['aggregate']['id']),
                    {'add_host': {'host': host}}, token=token,
                    headers=SETUP_MICROVERSION, ca_file=ctx.ca_file)
            ctx.say('zone %s: %s' % (zone, ', '.join(hosts)))

    def tempest_conf(self, ctx):
        low, high = ctx.outputs[self.name]['microversions']
        return {
            'service_available': {'nova': 'true'},
            'compute-feature-enabled': {
                'scheduler_enabled_filters': ','.join(
                    scheduler_filters(ctx)),
                'unified_limits': str(ctx.settings['unified_limits']).lower()},
            'compute': {
                'min_microversion': low,
                'max_microversion': high,
                'flavor_ref': layout.FLAVOR,
                'flavor_ref_alt': layout.FLAVOR_ALT,
                'min_compute_nodes': str(len(layout.hosts(
                    ctx.settings['zone_computes']))),
                'region': ctx.region,
                'build_interval': '1',
                'build_timeout': '60',
            },
            'conformance': {
                'anti_affinity_zone': layout.ZONE,
                'anti_affinity_zone_hosts': str(len(layout.zones(
                    ctx.settings['zone_computes'])[layout.ZONE])),
                'quota_usage_from_placement': str(ctx.settings[
                    'count_usage_from_placement']).lower(),
                'cell_down_name': layout.DOWN_CELL,
                'cell_down_zone': layout.DOWN_CELL_ZONE,
                'fault_control_url': ctx.url(self.name, CONTROL),
                'fault_control_token': ctx.secrets['control_token'],
            },
        }

    # -- service-process side ----------------------------------------------
    def prepare_process(self):
        if eventlet_mode():
            # nova <= 33 runs its conductor and computes under eventlet
            # (see THREADING_MAJOR). Up to nova 31, importing
            # nova.monkey_patch patches everything with eventlet; from
            # nova 32 the module only defines patch(), which patches
            # with eventlet when OS_NOVA_DISABLE_EVENTLET_PATCHING is
            # unset (nova's test module calls it again later: a no-op).
            os.environ.pop('OS_NOVA_DISABLE_EVENTLET_PATCHING', None)
            import nova.monkey_patch
            if hasattr(nova.monkey_patch, 'patch'):
                nova.monkey_patch.patch()
            # serve.py imported socketserver before the patch, and it
            # picked its selector class then: a real select() that
            # would block every green thread while the server waits
            # (nova never answers). Point it at the now green class.
            import selectors
            import socketserver
            socketserver._ServerSelector = selectors.SelectSelector
            return
        # Threading mode (nova 34 can run without eventlet's monkey
        # patching; threads are faster and mix with our WSGI servers). It
        # must be decided before placement's libraries import eventlet.
        os.environ['OS_NOVA_DISABLE_EVENTLET_PATCHING'] = 'True'
        from nova import monkey_patch
        monkey_patch.patch()

    def build(self, proc):
        from conformance_tests.cloud.services.nova import app
        api, control = app.build(proc, self.name)
        return {base.API: api, CONTROL: control}


#: The first nova major version run in threading mode
#: (OS_NOVA_DISABLE_EVENTLET_PATCHING, ``nova.monkey_patch.patch()``):
#: 2026.2's nova 34. Nova 32 (2025.2) has the mode for its API and
#: scheduler only, and neither 32 nor 33 runs one process's services on
#: threads: their test harness keeps each database in one in-memory
#: SQLite connection for every thread (threads then interleave
#: transactions on it; nova 32 segfaulted in libsqlite3), and nova 32's
#: resource tracker deep-copies a provider tree holding a thread lock
#: (every compute was left without inventory). Nova 34 keeps each
#: database in a file in WAL mode and copies the tree without its lock.
#: Older novas run in eventlet mode.
THREADING_MAJOR = 34


def eventlet_mode(version=None):
    """Whether the installed nova (or ``version``, a tuple) must run
    under eventlet: it predates nova's threading mode."""
    if version is None:
        version = packages.installed_version('nova')
    return bool(version) and version[0] < THREADING_MAJOR


def _trust(ctx):
    """A keystoneauth session's CA option, on a TLS cloud."""
    return {'cafile': ctx.ca_file} if ctx.ca_file else {}


def nova_config(ctx):
    """Everything nova is configured with, other services' hooks merged."""
    user = ctx.service_user('nova')
    flags = {
        # Computes heartbeat every report_interval (10 s) and count as down
        # after service_down_time. On a starved 2-core machine (a load of
        # 75 was seen) heartbeats can lapse past the default 60 s, and the
        # scheduler skips a live host it thinks is down. No test here
        # takes a service down by stopping its heartbeat (a cell outage
        # makes the cell's database unreachable), so a longer grace changes
        # no verdict. (The peer check's unshelve "host not found" is not
        # this: see peer_tests.txt.)
        #
        # Each RPC server (conductor, scheduler, every compute) runs its
        # messages on a pool of up to executor_thread_pool_size threads
        # that never retire once started, and each idle one wakes every
        # second. At oslo.messaging's default of 64, one seed's run left
        # 218 threads in the nova process and it burnt 68% of a core while
        # idle; the embedded cloud serves at most a dozen concurrent boots
        # and no RPC handler here waits on another of its own server.
        'DEFAULT': {'compute_driver': 'fake.MediumFakeDriver',
                    'service_down_time': 600,
                    'executor_thread_pool_size': 8},
        'keystone_authtoken': service_configs.authtoken_section(
            ctx.identity_uri, user, ctx.ca_file),
        'placement': dict(service_configs.service_auth(
            ctx.identity_uri, user, ctx.ca_file), region_name=ctx.region,
            valid_interfaces='public'),
        # nova finds glance in the catalog too, in the cloud's region
        # (glance's contribution says which interface), and reaches it
        # through the front door, with its CA on a TLS cloud
        'glance': dict({'region_name': ctx.region}, **_trust(ctx)),
        # nova checks a project id given to it (flavor access, quotas)
        # with keystone, as the caller; unreachable, it lets any id pass
        'keystone': _trust(ctx),
        'quota': dict({'count_usage_from_placement': ctx.settings[
            'count_usage_from_placement']}, **zone_quota(
                ctx.settings['zone_computes'])),
        'filter_scheduler': {'enabled_filters': scheduler_filters(ctx)},
        # nova's own default, which its test harness turns to 'error': a
        # response nova's schema does not expect is logged, not refused.
        # Otherwise a mutant that changes a view would be refused by nova
        # itself, and killed by the 500 rather than by a test that reads
        # the view; and nothing could list what such a cloud holds.
        'api': {'response_validation': 'warn'},
        # Versioned notifications only (nova's default is unversioned):
        # seed 000's server group notifications are read from them
        # (notifications.py keeps those and nothing else).
        'notifications': {'notification_format': 'versioned'},
    }
    if ctx.settings['unified_limits']:
        flags['quota']['driver'] = UNIFIED_LIMITS_DRIVER
        flags['oslo_limit'] = unified_limits_section(ctx, user)
    for contributed in ctx.contributions(NOVA_CONF):
        for group, options in contributed.items():
            mine = flags.setdefault(group, {})
            for option, value in options.items():
                if option in mine and mine[option] != value:
                    raise ValueError(
                        'nova.conf [%s] %s: contributed %r clashes with '
                        '%r' % (group, option, value, mine[option]))
                mine[option] = value
    # the layout's hosts; apart, the computes other services contribute
    # (in no zone: blazar's freepool hosts, senlin's DRS host)
    computes = [list(c) for c in layout.hosts(ctx.settings['zone_computes'])]
    extra = [list(c) for cs in ctx.contributions(EXTRA_COMPUTES) for c in cs]
    return {'flags': flags,
            'computes': computes,
            'imports': [m for ms in ctx.contributions(NOVA_IMPORTS)
                        for m in ms],
            'extra_computes': extra,
            # every compute's size, None: the fake driver's
            'host_size': ctx.settings['host_size'],
            # a hypervisor hostname other than its service host, by host
            'nodenames': {
                c[0]: hypervisor_hostname(c[0], ctx.settings)
                for c in computes + extra
                if hypervisor_hostname(c[0], ctx.settings) != c[0]}}


UNIFIED_LIMITS_DRIVER = 'nova.quota.UnifiedLimitsDriver'

#: The registered limits (keystone's defaults for every project) of the
#: unified-limits profile: nova's own legacy defaults, and 1000 GB of
#: disk, which legacy quota does not count. Nova refuses a boot whose
#: resource has no registered limit, so every resource it checks has one.
REGISTERED_LIMITS = {
    'servers': 10,
    'class:VCPU': 20,
    'class:MEMORY_MB': 51200,
    'class:DISK_GB': 1000,
    'server_metadata_items': 128,
    'server_injected_files': 5,
    'server_injected_file_content_bytes': 10240,
    'server_injected_file_path_bytes': 255,
    'server_key_pairs': 100,
    'server_groups': 10,
    'server_group_members': 10,
}


def unified_limits_section(ctx, user):
    """[oslo_limit]: how nova's limit enforcer (oslo.limit) reads
    keystone's limits, as nova's service user (admin in the service
    project, which keystone lets read every project's limits), finding
    its own endpoint by type and region. endpoint_id is unset on purpose:
    nova's test harness sets it to a placeholder for its unit tests'
    fake keystone."""
    return dict(service_configs.service_auth(ctx.identity_uri, user,
                                             ctx.ca_file),
                endpoint_id=None,
                endpoint_service_type='compute',
                endpoint_region_name=ctx.region,
                endpoint_interface='public')


def register_limits(ctx):
    """What an operator does once for unified limits: nova's registered
    limits in keystone, for the compute service of the cloud's region."""
    token = ctx.admin_token()
    _, _, found = http.request('GET', ctx.identity_uri + '/services?type='
                               'compute', token=token, ca_file=ctx.ca_file)
    (service,) = found['services']
    http.request('POST', ctx.identity_uri + '/registered_limits', {
        'registered_limits': [
            {'service_id': service['id'], 'region_id': ctx.region,
             'resource_name': name, 'default_limit': value}
            for name, value in sorted(REGISTERED_LIMITS.items())]},
        token=token, ca_file=ctx.ca_file)
    ctx.say('unified limits: nova counts quota with keystone\'s limits '
            '(%d registered)' % len(REGISTERED_LIMITS))


def hypervisor_hostname(host, settings):
    """The hypervisor hostname of compute service host ``host``: its
    nodename, the name of its placement provider, what blazar enrols."""
    domain = settings.get('hypervisor_domain')
    return '%s.%s' % (host, domain) if domain else host


def zone_quota(zone_computes):
    """A grown zone's default quota: the scenarios may fill a zone of H
    hosts with 3*H+1 servers of one project and one group, more than
    nova's defaults (10 instances, 20 cores, 51200 MB of RAM, 10 members
    of a server group): at H=64, 193 servers of the scenarios' flavor
    need 98816 MB of m1.tiny. Today's layout keeps nova's defaults."""
    if zone_computes <= layout.DEFAULT_ZONE_COMPUTES:
        return {}
    room = 4 * zone_computes
    return {'instances': room, 'cores': room, 'server_group_members': room,
            'ram': room * layout.FLAVOR_RAM_MB}


def scheduler_filters(ctx):
    return list(SCHEDULER_FILTERS_BASE) + [
        name for names in ctx.contributions(SCHEDULER_FILTERS)
        for name in names]


SERVICE = Nova()
