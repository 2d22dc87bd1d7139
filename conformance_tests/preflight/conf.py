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

"""tempest.conf as written, and the credentials it configures.

Read with configparser, not Tempest's CONF (a process-wide singleton that
refuses, or silently defaults, what preflight must explain). Values are
the text of the file; defaults are Tempest's.
"""

import configparser
import os

import yaml

from conformance_tests.common import secret_options

# configparser folds [DEFAULT] into every section; oslo.config does not.
_NO_DEFAULT_SECTION = '\0none'
_TRUE = ('true', 'yes', 'on', '1')
_FALSE = ('false', 'no', 'off', '0')
# Tempest's defaults.
DEFAULT_DOMAIN = 'Default'
ADMIN_ROLE = 'admin'
HTTP_TIMEOUT = 60


class ConfError(Exception):
    """One line: the option to fix and why."""


class TempestConf(object):
    # Tempest's group is "service-clients"; oslo.config does not read a
    # [service_clients] section for it, so neither does preflight.
    HTTP_TIMEOUT_OPTION = '[service-clients] http_timeout'

    def __init__(self, path):
        self.path = path
        if not os.path.isfile(path):
            raise ConfError('--tempest-conf %s: no such file' % path)
        parser = configparser.ConfigParser(
            interpolation=None, strict=False,
            default_section=_NO_DEFAULT_SECTION)
        try:
            with open(path, encoding='utf-8') as f:
                parser.read_file(f)
        except (configparser.Error, UnicodeDecodeError) as e:
            raise ConfError('--tempest-conf %s is not a tempest.conf (INI) '
                            'file: %s' % (path, str(e).splitlines()[0]))
        except OSError as e:
            raise ConfError('--tempest-conf %s: %s' % (path, e.strerror))
        if not parser.has_section('identity') and \
                not parser.has_section('auth'):
            raise ConfError('--tempest-conf %s is not a tempest.conf: it '
                            'has no [identity] or [auth] section' % path)
        self._parser = parser

    def get(self, group, option):
        """The option's text (stripped), or None when unset."""
        if not self._parser.has_option(group, option):
            return None
        return self._parser.get(group, option).strip()

    def flag(self, group, option, default):
        """A BoolOpt as oslo.config reads it."""
        text = self.get(group, option)
        if text is None or text == '':
            return default
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ConfError('[%s] %s = %s: not true or false' % (
            group, option, text))

    def http_timeout(self):
        """Seconds Tempest's clients wait for a connection and for each
        answer ([service-clients] http_timeout, an IntOpt)."""
        text = self.get('service-clients', 'http_timeout')
        if text is None or text == '':
            return HTTP_TIMEOUT
        try:
            seconds = int(text)
        except ValueError:
            raise ConfError('%s = %s: not a whole number of seconds' % (
                self.HTTP_TIMEOUT_OPTION, text))
        if seconds < 1:
            raise ConfError('%s = %s: must be 1 or more (seconds Tempest '
                            'waits for an answer)' % (
                                self.HTTP_TIMEOUT_OPTION, text))
        return seconds

    def secrets(self):
        """Every value that is a secret (common/secret_options.py)."""
        values = [(option, self._parser.get(section, option))
                  for section in self._parser.sections()
                  for option in self._parser.options(section)]
        return [value for option, value in values
                if secret_options.is_secret(option, value)]


class Credential(object):
    """One account to authenticate, and how messages name it.

    ``option`` is what to fix when identity refuses it; ``label`` names
    the account (never its password).
    """

    def __init__(self, label, option, source, password, username=None,
                 user_id=None, user_domain=None, project_name=None,
                 project_id=None, project_domain=None, domain_name=None,
                 system=None, roles=(), types=()):
        self.label = label
        self.option = option
        self.source = source
        self.password = password
        self.username = username
        self.user_id = user_id
        self.user_domain = user_domain
        self.project_name = project_name
        self.project_id = project_id
        self.project_domain = project_domain
        self.domain_name = domain_name
        self.system = system
        self.roles = list(roles or ())
        self.types = list(types or ())
        # The [auth] admin_* account (not one of test_accounts_file).
        self.is_admin_of_conf = False

    def auth_body(self):
        user = {'password': self.password}
        if self.user_id:
            user['id'] = self.user_id
        else:
            user['name'] = self.username
            user['domain'] = {'name': self.user_domain}
        body = {'identity': {'methods': ['password'],
                             'password': {'user': user}}}
        if self.project_id:
            body['scope'] = {'project': {'id': self.project_id}}
        elif self.project_name:
            body['scope'] = {'project': {
                'name': self.project_name,
                'domain': {'name': self.project_domain}}}
        elif self.system:
            body['scope'] = {'system': {'all': True}}
        elif self.domain_name:
            body['scope'] = {'domain': {'name': self.domain_name}}
        return {'auth': body}

    def scope(self):
        if self.project_id or self.project_name:
            return 'project %s' % (self.project_name or self.project_id)
        if self.system:
            return 'system'
        if self.domain_name:
            return 'domain %s' % self.domain_name
        return 'unscoped'

    def describe(self):
        """What the findings say of it (no password)."""
        return {'source': self.source,
                'user': self.username or self.user_id,
                'user_domain': None if self.user_id else self.user_domain,
                'scope': self.scope(),
                'declared_roles': self.roles,
                'declared_types': self.types}


def admin_credential(conf):
    """[auth] admin_*, or None when no admin is configured."""
    username = conf.get('auth', 'admin_username')
    if not username:
        return None
    password = conf.get('auth', 'admin_password')
    if not password:
        raise ConfError('[auth] admin_password: not set, and '
                        'admin_username %s is' % username)
    domain = conf.get('auth', 'admin_domain_name') or DEFAULT_DOMAIN
    project = conf.get('auth', 'admin_project_name')
    system = conf.get('auth', 'admin_system')
    if not project and not system:
        raise ConfError('[auth] admin_project_name: not set (nor '
                        'admin_system), so the admin %s gets no catalog'
                        % username)
    cred = Credential(
        label=username, option='[auth] admin_password',
        source='[auth] admin_username', password=password,
        username=username,
        user_domain=conf.get('auth', 'admin_user_domain_name') or domain,
        project_name=project,
        project_domain=(conf.get('auth', 'admin_project_domain_name') or
                        domain),
        system=None if project else system)
    cred.is_admin_of_conf = True
    return cred


def account_credentials(conf):
    """Every account of [auth] test_accounts_file (Tempest's
    pre-provisioned accounts), in file order."""
    path = conf.get('auth', 'test_accounts_file')
    where = '[auth] test_accounts_file %s' % path
    try:
        with open(path, encoding='utf-8') as f:
            accounts = yaml.safe_load(f)
    except OSError as e:
        raise ConfError('%s: %s' % (where, e.strerror))
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ConfError('%s: not YAML (%s)' % (
            where, str(e).splitlines()[0]))
    if not isinstance(accounts, list) or not accounts:
        raise ConfError('%s: not a list of accounts' % where)
    domain = conf.get('auth', 'default_credentials_domain_name') or \
        DEFAULT_DOMAIN
    creds = []
    for number, account in enumerate(accounts, 1):
        if not isinstance(account, dict):
            raise ConfError('%s: account %d is not a mapping' % (
                where, number))
        user = account.get('username') or account.get('user_id')
        if not user or not account.get('password'):
            raise ConfError('%s: account %d has no %s' % (
                where, number,
                'username' if not user else 'password'))
        project = account.get('project_name') or account.get('tenant_name')
        project_id = account.get('project_id') or account.get('tenant_id')
        account_domain = account.get('domain_name')
        label = 'account %d (user %s%s)' % (
            number, user,
            ', project %s' % (project or project_id)
            if project or project_id else '')
        creds.append(Credential(
            label=label, option=where,
            source='[auth] test_accounts_file, account %d' % number,
            password=str(account['password']),
            username=account.get('username'),
            user_id=account.get('user_id'),
            user_domain=(account.get('user_domain_name') or account_domain
                         or domain),
            project_name=project, project_id=project_id,
            project_domain=(account.get('project_domain_name') or
                            account_domain or domain),
            # Tempest: no project but a domain_name is a domain scope.
            domain_name=None if project or project_id else account_domain,
            system=account.get('system'),
            roles=account.get('roles'), types=account.get('types')))
    return creds
