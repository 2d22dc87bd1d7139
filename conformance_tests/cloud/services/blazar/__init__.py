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

"""blazar: the reservation service (API and manager) in its own process.

Real blazar 18 from PyPI (app.py assembles it). What it gives the
other descriptors, through nova's hooks:
- nova's scheduler runs blazar-nova's BlazarFilter, with
  ``[blazar:physical:host] allow_preemptibles = True`` (seed 004);
- nova starts compute hosts of blazar's own (FREEPOOL_HOSTS, outside every
  zone of layout.py), because seeds 000/001 fill the
  conformance-zone hosts with regular servers and a regular server never
  lands on a freepool host. Their hypervisors take
  EVICTION_DESTROY_SECONDS to destroy a server blazar asked to delete,
  as real ones take seconds (see there why).

Once every service answers, the launcher does what a blazar operator does
once: it creates nova's ``freepool`` aggregate and enrols FREEPOOL_HOSTS
through blazar's own host API. The other hosts stay unmanaged.

Blazar's ``POST /os-hosts {"name": ...}`` takes the hypervisor hostname
(blazar's docs; its host plugin searches nova's hypervisors by that name
and adds the hypervisor's *service host* to the freepool aggregate), so
the enrolment names each host's hypervisor (nova_service.
hypervisor_hostname: ``pool1.vendor.example`` in the vendor-like
profile), while tempest.conf's ``preemptible_hosts`` stays the nova service
hosts, as its option says.
"""

import os
import time
import urllib.parse

from conformance_tests.cloud import http
from conformance_tests.cloud import packages
from conformance_tests.cloud import service_configs
from conformance_tests.cloud.services import base
from conformance_tests.cloud.services import nova as nova_service

# Hosts blazar manages (the freepool); tempest.conf names them in
# [conformance] preemptible_hosts. Cell1: the cell-outage scenarios of
# seed 001 take cell2 down and must not take blazar's hosts with it.
FREEPOOL_HOSTS = ('pool1', 'pool2')
FREEPOOL_CELL = 'cell1'
FREEPOOL = 'freepool'
FILTER = 'blazarnova.scheduler.filters.blazar_filter.BlazarFilter'
# Seconds the freepool hosts' hypervisors take to destroy a server
# (nova/fake_compute.py) that blazar asked to delete: an eviction (its
# service user, SERVICE_USER, is the one named in nova's request context).
# nova's fake driver takes none, a real hypervisor seconds; at lease
# start blazar 18 asks nova to delete the host's servers and moves the
# host on without waiting for them to be gone, so on the bare fake driver
# the delete won that race in about 2 of 6 runs and the verdict of
# reservation.lease.evicts-preemptibles was a coin. The API's evidence of
# that race is that the evicted server was still on the host when blazar
# gave up: its destroy ended after the start_lease event went ERROR,
# which blazar records after its 409 and its rollback. At load about 10
# on 2 cores (two `.ci/run`s side by side) the delete was asked at
# 07.284, the event went ERROR at 10.852, and a 2 s destroy ended at
# 10.789, 0.06 s before it: the verdict flipped (fresh-B, 2026-11-29).
# 6 s keeps the rollback inside the destroy with 4 s to spare. The spec
# reference waits for the servers to be gone, as a real cloud needs.
EVICTION_DESTROY_SECONDS = 6
SERVICE_USER = 'blazar'
# [preemptible] graceful_shutdown_time in blazar.conf and tempest.conf. Blazar
# 18 has no such option (its value is read only by the spec reference,
# mutants.py); the graceful-termination test checks the wait.
GRACEFUL_SHUTDOWN_TIME = 3
# Lease/host API microversion the launcher's set-up requests speak.
ENROL_TIMEOUT = 120
SETUP_HEADERS = {'OpenStack-API-Version': 'reservation 1.0'}


class Blazar(base.Service):
    name = 'blazar'
    process = 'blazar'
    distribution = 'blazar'
    listeners = (base.Listener(base.API, '/', '/reservation'),)
    catalog = (base.CatalogEntry('reservation', base.API, '/v1'),)
    service_user = True
    # Blazar talks to nova and placement only when a host is enrolled or a
    # lease event runs, so it starts beside them, not after them.
    depends_on = ('keystone',)
    # filter_mutants patch blazar-nova's filter, which runs in nova's
    # scheduler, quota_mutants nova's counting of preemptibles and
    # shutdown_mutants nova's stop: blazar declares them (seed 004's
    # rules), they name nova's process.
    mutants_modules = (__name__ + '.mutants',
                       __name__ + '.filter_mutants',
                       __name__ + '.quota_mutants',
                       __name__ + '.shutdown_mutants')
    # What app.build imports: the API app and its v1 extensions,
    # the manager and the two plugins it loads, the DB layer, and the
    # API's keystonemiddleware (BlazarFilter runs in nova's process).
    imports = ('blazar.api.v1.app', 'blazar.api.v1.leases.v1_0',
               'blazar.api.v1.oshosts.v1_0', 'blazar.manager.service',
               'blazar.plugins.oshosts.host_plugin',
               'blazar.plugins.instances.instance_plugin',
               'blazar.db.sqlalchemy.api', 'blazar.notification.notifier',
               'keystonemiddleware.auth_token')

    # -- launcher side ---------------------------------------------------
    def contributions(self, settings=None):
        return {
            nova_service.SCHEDULER_FILTERS: ['BlazarFilter'],
            nova_service.NOVA_IMPORTS: [FILTER.rsplit('.', 1)[0]],
            nova_service.EXTRA_COMPUTES: [
                # Any other delete takes no time, as on nova's fake driver
                # and the zone hosts: those are the tests' own (a cleanup,
                # a reserved server removed before its lease ends), and a
                # test waits for its server to be gone before anything
                # acts on the host, so no code races their destroy. Only
                # evictions take time (EVICTION_DESTROY_SECONDS): a time
                # for every delete would be waited for in every seed-004
                # test that removes a server from a freepool host.
                (host, FREEPOOL_CELL, 0,
                 {SERVICE_USER: EVICTION_DESTROY_SECONDS})
                for host in FREEPOOL_HOSTS],
            nova_service.NOVA_CONF: {
                'filter_scheduler': {'available_filters': [
                    'nova.scheduler.filters.all_filters', FILTER]},
                'blazar:physical:host': {'allow_preemptibles': True},
            },
        }

    def write_config(self, ctx):
        return blazar_conf(ctx)

    def after_ready(self, ctx):
        nova = next(d for d in ctx.descriptors if d.name == 'nova')
        compute = ctx.catalog_url('nova', nova.catalog[0])
        token = ctx.admin_token()
        http.request('POST', compute + '/os-aggregates', {
            'aggregate': {'name': FREEPOOL}}, token=token,
            headers=nova_service.SETUP_MICROVERSION, ca_file=ctx.ca_file)
        api = ctx.catalog_url(self.name, self.catalog[0])
        started = time.monotonic()
        hypervisors = [nova_service.hypervisor_hostname(host, ctx.settings)
                       for host in FREEPOOL_HOSTS]
        for hypervisor in hypervisors:
            # An enrolment makes a trust, reads the hypervisor from nova,
            # adds a placement provider and the aggregate host: seconds.
            http.request('POST', api + '/os-hosts', {'name': hypervisor},
                         token=token, headers=SETUP_HEADERS,
                         timeout=ENROL_TIMEOUT, ca_file=ctx.ca_file)
        ctx.say('blazar freepool: %s (enrolled in %.1f s)' % (
            ', '.join(hypervisors), time.monotonic() - started))

    def tempest_conf(self, ctx):
        return {
            'service_available': {'blazar': 'true'},
            'conformance': {
                # nova service hosts, not hypervisor hostnames
                'preemptible_hosts': ','.join(FREEPOOL_HOSTS),
                'blazar_freepool': FREEPOOL,
                'preemptible_graceful_shutdown_time': str(
                    GRACEFUL_SHUTDOWN_TIME),
            },
        }

    # -- service-process side ----------------------------------------------
    def prepare_process(self):
        if eventlet_mode():
            # blazar before 18 patches the process with eventlet when its
            # API module is imported, after serve.py imported
            # socketserver: patch first, and point socketserver at the
            # green selector, as senlin's descriptor does (a real select()
            # would block every green thread while the server waits).
            import eventlet
            eventlet.monkey_patch()
            import selectors
            import socketserver
            socketserver._ServerSelector = selectors.SelectSelector

    def build(self, proc):
        from conformance_tests.cloud.services.blazar import app
        return {base.API: app.build(
            proc, self.name, eventlet_mode=eventlet_mode())}


#: blazar 18 (2026.2, today's series) is the first this tree runs
#: threaded; 2024.1's 13 imports eventlet and patches the process in
#: blazar/api/v1/app.py.
#: Which release between 14 and 17 stopped is not checked: 18 is the
#: first seen without it.
THREADING_MAJOR = 18


def eventlet_mode(version=None):
    """Whether the installed blazar (or ``version``, a tuple) runs under
    eventlet."""
    if version is None:
        version = packages.installed_version('blazar')
    return bool(version) and version[0] < THREADING_MAJOR


def identity_location(identity_uri):
    """blazar's [DEFAULT] os_auth_host, os_auth_port and os_auth_prefix
    for keystone's v3 URL: blazar joins them into
    ``http://host:port/prefix/v3`` itself (DevStack: prefix `identity`)."""
    parts = urllib.parse.urlsplit(identity_uri)
    path = parts.path.rstrip('/')
    if not path.endswith('/v3'):
        raise ValueError('%s is not a keystone v3 URL' % identity_uri)
    return parts.hostname, parts.port, path[:-len('/v3')].strip('/')


def blazar_conf(ctx):
    user = ctx.service_user('blazar')
    host, port, prefix = identity_location(ctx.identity_uri)
    workdir = ctx.service_dir
    return service_configs.write_ini(
        os.path.join(workdir, 'blazar', 'blazar.conf'), {
            'DEFAULT': {
                'log_file': os.path.join(workdir, 'blazar.log'),
                'debug': False,
                'transport_url': 'fake://',
                'os_auth_host': host,
                'os_auth_port': port,
                'os_auth_prefix': prefix,
                'os_auth_version': 'v3',
                # blazar builds keystone's URL from these parts itself;
                # its nova, placement and keystone sessions trust cafile
                'os_auth_protocol': urllib.parse.urlsplit(
                    ctx.identity_uri).scheme,
                'os_region_name': ctx.region,
                # The user blazar acts as on nova and holds the trusts.
                'os_admin_username': user['username'],
                'os_admin_password': user['password'],
                'os_admin_project_name': service_configs.SERVICE_PROJECT,
                'os_admin_user_domain_name': service_configs.DOMAIN,
                'os_admin_project_domain_name': service_configs.DOMAIN,
                **({'cafile': ctx.ca_file} if ctx.ca_file else {}),
            },
            'database': {'connection': service_configs.sqlite_url(
                workdir, 'blazar.db')},
            # Host and instance reservations: the spec's two compute
            # plugins that must terminate preemptibles.
            'manager': {
                'plugins': 'physical.host.plugin,virtual.instance.plugin'},
            'nova': {'aggregate_freepool_name': FREEPOOL},
            # The spec's option; upstream ignores it (no such option).
            'preemptible': {'graceful_shutdown_time': GRACEFUL_SHUTDOWN_TIME},
            'keystone_authtoken': service_configs.authtoken_section(
                ctx.identity_uri, user, ctx.ca_file),
            'oslo_messaging_notifications': {'driver': 'noop'},
        })


SERVICE = Blazar()
