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

"""glance: the image service, real glance from PyPI in its own process.

Own process, because glance uses oslo.config's global CONF like nova. It
keeps its database (SQLite, migrated by glance's own db sync) and its
file store under the workdir, and validates keystone tokens. Once it
answers, the launcher uploads two small raw images, as an operator
would, for Tempest's image_ref and image_ref_alt. Nova finds it through
the catalog (the nova.conf hook below says which interface to use).
"""

import os
import shutil
import sys
import urllib.error
import urllib.request

from conformance_tests.cloud import http
from conformance_tests.cloud import packages
from conformance_tests.cloud import service_configs
from conformance_tests.cloud.services import base
from conformance_tests.common import tls

# Operator-made fixtures, so no resource prefix: `conformance cleanup`
# must never take them.
IMAGES = (('image_ref', 'embedded-cloud-image'),
          ('image_ref_alt', 'embedded-cloud-image-alt'))
# A raw disk of zeros is a real image to glance and to nova's fake driver;
# small keeps the start fast.
IMAGE_SIZE = 64 * 1024
# glance before 33 (2024.1's is 28) reads its paste pipeline from
# glance-api-paste.ini beside glance-api.conf (wsgi_app.CONFIG_FILES), and
# refuses to start without it; 33 takes it from [paste_deploy] alone.
PASTE_BESIDE_CONF_BEFORE = 33
PASTE_INI = 'glance-api-paste.ini'


class Glance(base.Service):
    name = 'glance'
    process = 'glance'
    distribution = 'glance'
    listeners = (base.Listener(base.API, '/', '/image'),)
    catalog = (base.CatalogEntry('image', base.API, '/'),)
    service_user = True
    depends_on = ('keystone',)
    # glance-manage's and the WSGI app's modules, then what loading the
    # app imports (py-spy and sys.modules in a started glance): the v2
    # router (about 760 modules, 0.75-1.4 s) and the cinder store driver
    # glance_store loads with the others.
    imports = ('glance.cmd.manage', 'glance.common.wsgi_app',
               'glance.api.v2.router', 'glance_store._drivers.cinder')

    def contributions(self, settings=None):
        return {'nova.conf': {'glance': {'valid_interfaces': 'public'}}}

    def write_config(self, ctx):
        path = glance_conf(ctx.service_dir, ctx.identity_uri,
                           ctx.service_user(self.name), ctx.url(self.name),
                           ctx.ca_file)
        if paste_beside_conf():
            # the wheel's own file (<prefix>/etc/glance), as [paste_deploy]
            # names it
            shutil.copyfile(paste_ini(), os.path.join(
                os.path.dirname(path), PASTE_INI))
        return path

    def after_ready(self, ctx):
        # 'http://h:p/' on its own port, 'http://h:p/image' behind the
        # front door
        api = ctx.catalog_url(self.name, self.catalog[0]).rstrip('/') + '/v2'
        token = ctx.admin_token()
        images = {}
        for option, name in IMAGES:
            _, _, image = http.request('POST', api + '/images', {
                'name': name, 'disk_format': 'raw',
                'container_format': 'bare', 'visibility': 'public'},
                token=token, ca_file=ctx.ca_file)
            _upload(api + '/images/%s/file' % image['id'],
                    bytes(IMAGE_SIZE), token, ctx.ca_file)
            images[option] = image['id']
        ctx.outputs[self.name] = images
        ctx.say('images: %s' % ', '.join(name for _, name in IMAGES))

    def tempest_conf(self, ctx):
        images = ctx.outputs[self.name]
        return {'service_available': {'glance': 'true'},
                'compute': dict(images),
                'image': {'region': ctx.region},
                'image-feature-enabled': {'api_v2': 'true'}}

    def build(self, proc):
        from conformance_tests.cloud.services.glance import app
        return {base.API: app.build_app(proc.config(self.name))}


def _upload(url, data, token, ca_file=None):
    """PUT raw image data (http.request speaks JSON only)."""
    req = urllib.request.Request(url, data=data, method='PUT', headers={
        'Content-Type': 'application/octet-stream', 'X-Auth-Token': token})
    try:
        context = tls.client_context(ca_file) if ca_file else None
        with urllib.request.urlopen(req, timeout=30,
                                    context=context) as resp:
            resp.read()
    except urllib.error.HTTPError as e:
        raise http.HTTPError('PUT', url, e.code,
                             e.read().decode(errors='replace'))


def paste_ini():
    """The paste pipeline glance's wheel installs."""
    return os.path.join(sys.prefix, 'etc', 'glance', PASTE_INI)


def paste_beside_conf(version=None):
    """Whether the installed glance (or ``version``, a tuple) needs its
    paste file beside its config file."""
    if version is None:
        version = packages.installed_version('glance')
    return bool(version) and version[0] < PASTE_BESIDE_CONF_BEFORE


def glance_conf(workdir, identity_uri, user, own_url, ca_file=None):
    home = os.path.join(workdir, 'glance')
    return service_configs.write_ini(os.path.join(home, 'glance-api.conf'), {
        'DEFAULT': {
            'log_file': os.path.join(workdir, 'glance.log'),
            'debug': False,
            # where glance-direct imports stage data, and what a worker
            # calls itself: both inside this cloud
            'node_staging_uri': 'file://%s' % os.path.join(home, 'staging'),
            'worker_self_reference_url': own_url,
            'image_cache_dir': os.path.join(home, 'cache'),
            # web-download fetches from the internet; this cloud is
            # offline, so it says it does not offer that method.
            'enabled_import_methods': '[glance-direct,copy-image]',
        },
        'database': {'connection': service_configs.sqlite_url(
            workdir, 'glance.db')},
        'glance_store': {'stores': 'file', 'default_store': 'file',
                         'filesystem_store_datadir': os.path.join(
                             home, 'images')},
        'paste_deploy': {'flavor': 'keystone', 'config_file': paste_ini()},
        'keystone_authtoken': service_configs.authtoken_section(
            identity_uri, user, ca_file),
    })


SERVICE = Glance()
