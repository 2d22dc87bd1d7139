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

"""keystone: the identity service every other service registers with.

Its own OS process: keystone cannot share oslo.config's global CONF with
the oslo.config services. Its SQLite tuning is plain keystone.conf:
- bcrypt with 4 rounds, because Tempest's dynamic credentials create users
  for every test class and the default cost dominates the run;
- an in-process cache, because token validation otherwise re-reads
  SQLite on every request (~350 ms -> ~3 ms measured upstream). It is
  oslo.cache's dict backend, whose entries expire (CACHE_SECONDS), not
  dogpile's memory backend, which never drops one: with it keystone grew
  by about 6 KiB a token for as long as it ran (1200 tokens, each
  validated 3 times: +7.1 MiB and still rising; the dict backend with a
  10 s expiry: +3.4 MiB, flat after the first 600), about 7 MiB a suite
  run in the bench's soak;
- fernet and credential key repositories inside the workdir.
"""

import os

from conformance_tests.cloud import service_configs
from conformance_tests.cloud.services import base

DOMAIN = service_configs.DOMAIN


class Keystone(base.Service):
    name = 'keystone'
    process = 'keystone'
    distribution = 'keystone'
    provides_identity = True
    listeners = (base.Listener(base.API, '/v3', '/identity'),)
    # Registered by keystone's own bootstrap, not by the launcher.
    catalog = (base.CatalogEntry('identity', base.API, '/v3'),)
    # app.build's imports. flask.core (keystonemiddleware and the auth
    # context middleware, about 160 modules) is not among application's.
    imports = ('keystone.server.flask.application', 'keystone.cmd.bootstrap',
               'keystone.server.flask.core',
               'keystone.common.sql.upgrades')

    def write_config(self, ctx):
        return keystone_conf(ctx.service_dir)

    def tempest_conf(self, ctx):
        admin = ctx.secrets['admin']
        return {
            'auth': {'admin_username': admin['username'],
                     'admin_password': admin['password'],
                     'admin_project_name': admin['project_name'],
                     'admin_domain_name': DOMAIN},
            'identity': dict({'uri_v3': ctx.identity_uri,
                              'auth_version': 'v3', 'region': ctx.region},
                             **_trust(ctx)),
            'identity-feature-enabled': {'api_v2': 'false'},
        }

    def accounts(self, ctx):
        admin = ctx.secrets['admin']
        return [{'username': admin['username'],
                 'project_name': admin['project_name'],
                 'domain_name': DOMAIN,
                 'password': admin['password'],
                 'roles': ['admin']}]

    def clouds(self, ctx):
        admin = ctx.secrets['admin']
        return {'conformance-admin': {
            'auth': {'auth_url': ctx.identity_uri,
                     'username': admin['username'],
                     'password': admin['password'],
                     'project_name': admin['project_name'],
                     'user_domain_name': DOMAIN,
                     'project_domain_name': DOMAIN},
            'region_name': ctx.region, 'identity_api_version': 3,
            **({'cacert': ctx.ca_file} if ctx.ca_file else {})}}

    def build(self, proc):
        from conformance_tests.cloud.services.keystone import app
        return {base.API: app.build_app(proc)}


def _trust(ctx):
    """[identity] ca_certificates_file of a TLS cloud: the trust every
    Tempest client, and every other client of the suite, uses."""
    return {'ca_certificates_file': ctx.ca_file} if ctx.ca_file else {}


# How long a cached token validation (or any other cached read) lives
# in the dict backend: far longer than a test uses a token, short enough
# that a cloud running for hours holds a few runs' tokens, not all.
CACHE_SECONDS = 300


def keystone_conf(workdir):
    return service_configs.write_ini(os.path.join(workdir, 'keystone.conf'), {
        'DEFAULT': {'log_file': os.path.join(workdir, 'keystone.log'),
                    'debug': False},
        'database': {'connection': service_configs.sqlite_url(
            workdir, 'keystone.db')},
        'identity': {'password_hash_rounds': 4},
        'cache': {'enabled': True, 'backend': 'oslo_cache.dict',
                  'expiration_time': CACHE_SECONDS,
                  'backend_argument': 'expiration_time:%d' % CACHE_SECONDS},
        'token': {'provider': 'fernet'},
        'fernet_tokens': {'key_repository': os.path.join(
            workdir, 'fernet-keys')},
        'fernet_receipts': {'key_repository': os.path.join(
            workdir, 'fernet-keys')},
        'credential': {'key_repository': os.path.join(
            workdir, 'credential-keys')},
    })


SERVICE = Keystone()
