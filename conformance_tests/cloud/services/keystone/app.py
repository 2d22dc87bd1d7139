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

"""Real keystone, prepared and built in this process.

Everything keystone-manage would do (db_sync, fernet_setup,
credential_setup, bootstrap) is done by calling keystone's own code, so the
cloud starts in about two seconds instead of four separate CLI start-ups.
The tuning that makes keystone usable on SQLite (cheap password hashing, an
in-memory token cache, key repositories in the workdir) lives in the
keystone.conf its descriptor writes (__init__.py), not here.
"""


def build_app(proc):
    """Return keystone's public WSGI app, its database bootstrapped;
    ``proc`` is the process's runtime.ProcessContext."""
    from keystone.cmd import bootstrap
    from keystone.common import fernet_utils
    from keystone.common.sql import upgrades
    import keystone.conf
    import keystone.server
    from keystone.server.flask import application
    from keystone.server.flask import core

    conf = keystone.conf.CONF
    keystone.server.configure(config_files=[proc.config('keystone')])
    upgrades.offline_sync_database_to_version()

    key_repositories = (
        ('fernet_tokens', conf.fernet_tokens.max_active_keys),
        ('fernet_receipts', conf.fernet_receipts.max_active_keys),
        ('credential', 3))
    for group, max_keys in key_repositories:
        utils = fernet_utils.FernetUtils(
            getattr(conf, group).key_repository, max_keys, group)
        utils.create_key_directory()
        if utils.validate_key_repository(requires_write=True):
            utils.initialize_key_repository()

    admin = proc.secrets['admin']
    boot = bootstrap.Bootstrapper()  # loads keystone's backends once
    boot.admin_username = admin['username']
    boot.admin_password = admin['password']
    boot.project_name = admin['project_name']
    boot.admin_role_name = 'admin'
    boot.service_name = 'keystone'
    boot.region_id = proc.region
    boot.public_url = proc.identity_uri
    boot.internal_url = proc.identity_uri
    boot.immutable_roles = True
    boot.bootstrap()

    # initialize_application() would load the backends a second time; build
    # the same app from its two parts instead.
    app = application.application_factory('public')
    return core.setup_app_middleware(app)
