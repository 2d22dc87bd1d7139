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

"""placement: real placement behind keystonemiddleware.

It has an OS process of its own. It could share nova's (placement
builds its own ConfigOpts, not oslo.config's global CONF), and it did
until py-spy showed placement's requests were about a fifth of that
process's busy time while a run's boots kept it on one core: alone, it
runs on the other core (the clean run of seeds 000, 001 and 003 went
from about 61 s to 47 s). Nova reaches it over HTTP through the catalog
like any other client.
"""

import os

from conformance_tests.cloud import http
from conformance_tests.cloud import service_configs
from conformance_tests.cloud.services import base


class Placement(base.Service):
    name = 'placement'
    process = 'placement'
    distribution = 'openstack-placement'
    listeners = (base.Listener(base.API, '/', '/placement'),)
    catalog = (base.CatalogEntry('placement', base.API, '/'),)
    service_user = True
    depends_on = ('keystone',)
    imports = ('placement.wsgi',)
    mutants_modules = (__name__ + '.mutants',)

    def write_config(self, ctx):
        return placement_conf(ctx.service_dir, ctx.identity_uri,
                              ctx.service_user(self.name), ctx.ca_file)

    def after_ready(self, ctx):
        _, _, root = http.request('GET', ctx.url(self.name) + '/')
        version = root['versions'][0]
        ctx.outputs[self.name] = {'microversions': (
            version['min_version'], version['max_version'])}

    def tempest_conf(self, ctx):
        low, high = ctx.outputs[self.name]['microversions']
        return {'service_available': {'placement': 'true'},
                'placement': {'min_microversion': low,
                              'max_microversion': high}}

    def build(self, proc):
        # placement finds its config through this variable only; this
        # process is placement's, so setting it here hides nothing.
        os.environ['OS_PLACEMENT_CONFIG_DIR'] = os.path.dirname(
            proc.config(self.name))
        from placement import wsgi
        proc.apply_mutants(self.name)
        return {base.API: wsgi.init_application()}


def placement_conf(workdir, identity_uri, user, ca_file=None):
    return service_configs.write_ini(
        os.path.join(workdir, 'placement', 'placement.conf'), {
            'DEFAULT': {'log_file': os.path.join(workdir, 'placement.log'),
                        'debug': False},
            'api': {'auth_strategy': 'keystone'},
            'placement_database': {
                'connection': service_configs.sqlite_url(
                    workdir, 'placement.db'),
                'sync_on_startup': True},
            'keystone_authtoken': service_configs.authtoken_section(
                identity_uri, user, ca_file),
        })


SERVICE = Placement()
