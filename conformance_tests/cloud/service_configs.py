"""Config files for the embedded cloud's services.

Keystone's tuning for SQLite lives here as plain configuration:
- bcrypt with 4 rounds, because Tempest's dynamic credentials create users
  for every test class and the default cost dominates the run;
- an in-process dogpile cache, because token validation otherwise re-reads
  SQLite on every request (~350 ms -> ~3 ms measured upstream);
- fernet and credential key repositories inside the workdir.
"""

import configparser
import os

from conformance_tests.cloud import secrets


def _write(path, sections):
    parser = configparser.ConfigParser(interpolation=None)
    for section, values in sections.items():
        parser[section] = {k: str(v) for k, v in values.items()}
    with secrets.private_open(path) as f:
        parser.write(f)
    return path


def keystone_conf(workdir):
    return _write(os.path.join(workdir, 'keystone.conf'), {
        'DEFAULT': {'log_file': os.path.join(workdir, 'keystone.log'),
                    'debug': False},
        'database': {'connection': 'sqlite:///%s' % os.path.join(
            workdir, 'keystone.db')},
        'identity': {'password_hash_rounds': 4},
        'cache': {'enabled': True, 'backend': 'dogpile.cache.memory'},
        'token': {'provider': 'fernet'},
        'fernet_tokens': {'key_repository': os.path.join(
            workdir, 'fernet-keys')},
        'fernet_receipts': {'key_repository': os.path.join(
            workdir, 'fernet-keys')},
        'credential': {'key_repository': os.path.join(
            workdir, 'credential-keys')},
    })


def authtoken_section(identity_uri, user):
    """[keystone_authtoken] for a service that validates keystone tokens."""
    return {
        'www_authenticate_uri': identity_uri,
        'auth_url': identity_uri,
        'auth_type': 'password',
        'username': user['username'],
        'password': user['password'],
        'project_name': 'service',
        'user_domain_name': 'Default',
        'project_domain_name': 'Default',
        'service_token_roles_required': True,
    }


def placement_conf(workdir, identity_uri, user):
    confdir = os.path.join(workdir, 'placement')
    os.makedirs(confdir, exist_ok=True)
    return _write(os.path.join(confdir, 'placement.conf'), {
        'DEFAULT': {'log_file': os.path.join(workdir, 'placement.log'),
                    'debug': False},
        'api': {'auth_strategy': 'keystone'},
        'placement_database': {
            'connection': 'sqlite:///%s' % os.path.join(
                workdir, 'placement.db'),
            'sync_on_startup': True},
        'keystone_authtoken': authtoken_section(identity_uri, user),
    })
