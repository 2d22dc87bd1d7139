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

"""senlin: the clustering service (seed 002), real senlin 16 from PyPI.

Senlin's API, conductor and engine run in one OS process of their own
(senlin is an eventlet program and uses oslo.config's global CONF, so it
shares a process with nobody), talking over oslo.messaging's fake
transport. Its database is in-memory SQLite: senlin's engine writes from
many green threads at once, which file SQLite answers with "database is
locked". It reaches keystone (trusts), glance (image checks) and nova
(servers, server groups, hypervisors) over HTTP through the catalog, as
on any cloud.

It contributes one compute to nova: a host whose hypervisor hostname
contains ``drs``, for the affinity policy's vSphere DRS extension. The
host is in no aggregate (so in nova's default zone, never in seed 000's
or 001's zones) and its hypervisor hostname (the service host, or its
FQDN under the ``hypervisor_domain`` setting) goes to tempest.conf as
``[conformance] senlin_drs_hypervisor``; senlin places the servers on
that hypervisor's service host. With the ``drs_hypervisor`` setting off
(the ``*-no-drs-hypervisor`` profiles) there is no such host, as on most
vendors' clouds, and that option is left unset; there the cloud has a
near miss instead, a host whose hostname contains ``dr`` but not
``drs`` (a disaster-recovery site's naming), which is not a DRS host by
the seed's words but is by senlin's pattern ``.*drs*``.
"""

import os
import sys

from conformance_tests.cloud import service_configs
from conformance_tests.cloud.services import base
from conformance_tests.cloud.services import nova as nova_service

# A fake compute named so: the DRS extension looks for "drs" in the
# hypervisor hostname, which nova's fake driver takes from the host name
# (nova_service.hypervisor_hostname: with a domain, still has "drs").
DRS_HOST = 'vsphere-drs-1'
# The spec-reference profiles' second DRS host (setting drs_hypervisors
# 2): with two, "the first matching hypervisor" is a rule the policy can
# break (where senlin reaches that loop: with the references).
SECOND_DRS_HOST = 'vsphere-drs-2'
DRS_CELL = 'cell1'
# The no-DRS cloud's near miss: "dr", not "drs", in its hostname.
NEAR_MISS_HOST = 'compute-dr-1'
# Seconds senlin waits for a server to go ACTIVE: nova's fake driver
# builds in well under that even on a loaded 2-core machine.
NOVA_TIMEOUT = 120


class Senlin(base.Service):
    name = 'senlin'
    process = 'senlin'
    distribution = 'senlin'
    listeners = (base.Listener(base.API, '/', '/cluster'),)
    catalog = (base.CatalogEntry('clustering', base.API, '/'),)
    service_user = True
    depends_on = ('keystone', 'glance', 'nova')
    # client_reference: python-senlinclient's spec reference, applied in
    # the `openstack` process of the spec-reference profile, not here.
    mutants_modules = (__name__ + '.mutants', __name__ + '.client_reference')
    # eventlet (prepare_process), the openstacksdk compute proxy
    # senlin's nova driver (and the spec references over it) calls, then
    # what app.build imports: senlin's RPC setup,
    # conductor, engine, models, and its paste pipeline's modules.
    imports = ('eventlet', 'openstack.compute.v2._proxy',
               'senlin.common.messaging', 'senlin.objects',
               'senlin.conductor.service', 'senlin.engine.service',
               'senlin.db.sqlalchemy.models', 'senlin.api.common.wsgi',
               'senlin.api.middleware', 'senlin.api.openstack.v1.router',
               'keystonemiddleware.auth_token',
               # the profile plugins senlin's registry loads at start
               # (docker's pulls in the docker SDK, about 190 modules)
               'senlin.profiles.container.docker')

    # drs_hypervisor False: no hypervisor of the cloud has "drs" in its
    # hostname, as on most vendors' clouds; S3's "No suitable vSphere
    # host is available." can only be shown there (profiles.py).
    # drs_hypervisors: how many DRS hosts (1, or 2 in the spec-reference
    # profiles, for "the first matching hypervisor").
    settings = {'drs_hypervisor': True, 'drs_hypervisors': 1}

    def contributions(self, settings=None):
        if not (settings or self.settings).get('drs_hypervisor', True):
            return {nova_service.EXTRA_COMPUTES: [(NEAR_MISS_HOST,
                                                   DRS_CELL)]}
        count = (settings or self.settings).get('drs_hypervisors', 1)
        return {nova_service.EXTRA_COMPUTES: [
            (host, DRS_CELL) for host in (DRS_HOST, SECOND_DRS_HOST)[:count]]}

    # -- launcher side ---------------------------------------------------
    def write_config(self, ctx):
        return senlin_conf(ctx.service_dir, ctx.identity_uri,
                           ctx.service_user(self.name), ctx.region,
                           ctx.ca_file)

    def tempest_conf(self, ctx):
        # a hypervisor hostname, not a service host
        conformance = {}
        if ctx.settings.get('drs_hypervisor', True):
            conformance['senlin_drs_hypervisor'] = (
                nova_service.hypervisor_hostname(DRS_HOST, ctx.settings))
        if ctx.settings.get('spec_reference'):
            # python-senlinclient's spec reference is applied in the
            # client's own process: an `openstack` that applies it, for
            # this profile only (client_reference.py).
            from conformance_tests.cloud.services.senlin import (
                client_reference)
            conformance['openstack_cli'] = client_reference.write_launcher(
                os.path.join(ctx.service_dir, 'senlin'))
        return {'service_available': {'senlin': 'true'},
                'conformance': conformance}

    # -- service-process side ----------------------------------------------
    def prepare_process(self):
        # Senlin is written for eventlet: its engine runs every action in
        # a green thread. Patch before anything imports socket/threading.
        import eventlet
        eventlet.monkey_patch()
        # serve.py imported socketserver before this patch, and
        # socketserver picked its selector class then: a real poll()
        # that would block every green thread while the server waits.
        # Point it at the (now green) selectors module's class.
        import selectors
        import socketserver
        socketserver._ServerSelector = selectors.SelectSelector
        from conformance_tests.cloud.services.senlin import compat
        compat.apply()

    def build(self, proc):
        from conformance_tests.cloud.services.senlin import app
        return {base.API: app.build(proc, self.name)}


def senlin_conf(workdir, identity_uri, user, region, ca_file=None):
    # senlin's SDK connections (to nova) and its keystone client trust
    # [authentication] cafile; its token checks, keystonemiddleware's.
    authentication = {}
    if ca_file:
        authentication['cafile'] = ca_file
    return service_configs.write_ini(
        os.path.join(workdir, 'senlin', 'senlin.conf'), {
            'DEFAULT': {
                'log_file': os.path.join(workdir, 'senlin.log'),
                'debug': False,
                'transport_url': 'fake://',
                'default_region_name': region,
                'default_nova_timeout': NOVA_TIMEOUT,
                'host': 'embedded-senlin',
                # the API serves requests one at a time (wsgi_server.py):
                # keep the engine's batches small as well
                'max_actions_per_batch': 0,
            },
            'database': {'connection': 'sqlite://'},
            'senlin_api': {'api_paste_config': os.path.join(
                sys.prefix, 'etc', 'senlin', 'api-paste.ini')},
            'authentication': {
                'auth_url': identity_uri,
                'service_username': user['username'],
                'service_password': user['password'],
                'service_project_name': service_configs.SERVICE_PROJECT,
                'service_user_domain': service_configs.DOMAIN,
                'service_project_domain': service_configs.DOMAIN,
                'interface': 'public',
                **authentication,
            },
            'keystone_authtoken': service_configs.authtoken_section(
                identity_uri, user, ca_file),
            'oslo_messaging_notifications': {'driver': 'noop'},
        })


SERVICE = Senlin()
