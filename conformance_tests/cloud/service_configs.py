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

"""What the services' config files have in common.

Each descriptor (cloud/services/<name>/) writes its own service's
config; these are the pieces they share: a private ini writer, SQLite
URLs inside the workdir, and how a service authenticates to keystone.
"""

import configparser
import os

from conformance_tests.cloud import secrets

# The project and domain of every service user (what DevStack does too).
SERVICE_PROJECT = 'service'
DOMAIN = 'Default'


def write_ini(path, sections):
    """Write ``sections`` as an ini file readable by its owner only (it
    holds the service's password); no interpolation, so '%' survives."""
    parser = configparser.ConfigParser(interpolation=None)
    for section, values in sections.items():
        parser[section] = {k: str(v) for k, v in values.items()}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with secrets.private_open(path) as f:
        parser.write(f)
    return path


def sqlite_url(workdir, name):
    return 'sqlite:///%s' % os.path.join(workdir, name)


def service_auth(identity_uri, user, ca_file=None):
    """keystoneauth password options for a service user; ``ca_file``: the
    CA a TLS cloud's front door is signed by (keystoneauth's session
    option of the same group)."""
    auth = {
        'auth_type': 'password',
        'auth_url': identity_uri,
        'username': user['username'],
        'password': user['password'],
        'project_name': SERVICE_PROJECT,
        'user_domain_name': DOMAIN,
        'project_domain_name': DOMAIN,
    }
    if ca_file:
        auth['cafile'] = ca_file
    return auth


def authtoken_section(identity_uri, user, ca_file=None):
    """[keystone_authtoken] for a service that validates keystone tokens
    (keystonemiddleware's ``cafile`` is its session's, as keystoneauth's)."""
    return dict(service_auth(identity_uri, user, ca_file),
                www_authenticate_uri=identity_uri,
                service_token_roles_required=True)
