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

"""Seed 000 through python-novaclient: its binding and its `nova` shell.

The spec names python-novaclient: "python-novaclient will be modified to
add this new rule parameter to the `nova server-group-create` shell
command". This drives the installed client at compute microversion 2.64:
its library (``novaclient.client.Client('2.64', session=...)``, as
programs use it) and, while the release still ships it, its deprecated
`nova` shell. Both speak 2.64 as nova merged it (a flat ``policy`` and a
sibling ``rules``): the group they create must show that rule, and
create, show, list and delete must agree with each other and with the
API. Credentials reach the shell through OS_* environment variables,
never its command line.
"""

import ast
import json
import os
import shutil
import subprocess
import sys

from tempest import config
from tempest.lib.common import api_version_utils
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest import test

from conformance_tests.common import cli
from conformance_tests.common import microversion
from conformance_tests.common import skips
from conformance_tests.services.compute.v2 import server_groups

CONF = config.CONF
MICROVERSION = '2.64'
LIBRARY_RULE = (
    "novaclient's server_groups.create(name, 'anti-affinity', rules="
    "{'max_server_per_host': 2}) at compute 2.64 creates an anti-affinity "
    "group with that rule")
SHELL_RULE = ('nova server-group-create --rule max_server_per_host=2 NAME '
              'anti-affinity at compute 2.64 creates an anti-affinity group '
              'with that rule')
EXPECTED_RULES = {'max_server_per_host': 2}


def _novaclient_skip_reason():
    try:
        import novaclient.client  # noqa: F401
    except ImportError:
        return ('python-novaclient is not installed: install it beside '
                'Tempest for the novaclient checks')
    return None


def nova_command():
    """The `nova` shell installed beside this Python, else on PATH, or
    None (python-novaclient dropped it after deprecating it)."""
    beside = os.path.join(os.path.dirname(sys.executable), 'nova')
    return beside if os.access(beside, os.X_OK) else shutil.which('nova')


def parse_table(text):
    """The rows of a prettytable the `nova` shell printed, as dicts of
    column name to cell text."""
    rows = [line for line in text.splitlines() if line.startswith('|')]
    if not rows:
        return []
    cells = [[c.strip() for c in row.strip().strip('|').split('|')]
             for row in rows]
    header = cells[0]
    return [dict(zip(header, row)) for row in cells[1:]]


def parse_mapping(cell):
    """A dict the shell printed (JSON or a Python repr), or the text."""
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(cell)
        except (ValueError, SyntaxError):
            continue
    return cell


class NovaShell(cli.OpenStack):
    """The `nova` shell run as one user (cli.OpenStack's environment,
    redaction and failures, another command)."""

    def shown(self, args):
        return self.redact(' '.join(['nova'] + cli.redact_argv(args)))

    def run(self, *args, check=True):
        shown = self.shown(args)
        try:
            done = subprocess.run([nova_command()] + list(args),
                                  env=self.env, capture_output=True,
                                  text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise cli.CommandTimeout(cli.timeout_message(shown,
                                                         self.timeout))
        result = cli.Result(self, shown, done.returncode, done.stdout,
                            done.stderr)
        return result.check() if check else result

    def table(self, *args):
        result = self.run(*args)
        rows = parse_table(result.stdout)
        if not rows:
            raise cli.CommandFailed('%s: `%s` printed no table: %r' % (
                self.rule, result.shown, self.redact(result.stdout)[:300]))
        return rows


class ServerGroupNovaclientTest(api_version_utils.BaseMicroversionTest,
                                test.BaseTestCase):
    credentials = ['primary']
    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.require_service(cls, CONF, 'nova',
                              'the compute conformance tests')
        skips.skip_if(cls, microversion.class_skip_reason(cls, CONF))
        skips.skip_if(cls, _novaclient_skip_reason())

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.groups = cls.os_primary.server_groups_client
        # Unchecked by Tempest's 2.64 response schema: the test judges
        # what the API shows.
        cls.raw = cls.os_primary.conformance_compute_v2.RawComputeClient()

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.setup_api_microversion_fixture(
            compute_microversion=microversion.request_microversion(
                cls, CONF))

    def _name(self, what):
        return data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name=what)

    def _api_view(self, group_id):
        return self.raw.get('os-server-groups/%s' % group_id,
                            MICROVERSION)['server_group']

    def _novaclient(self):
        from keystoneauth1.identity import v3
        from keystoneauth1 import session
        from novaclient import client

        creds = self.os_primary.credentials
        auth = v3.Password(
            auth_url=CONF.identity.uri_v3, username=creds.username,
            password=creds.password, project_name=creds.project_name,
            user_domain_name=creds.user_domain_name or 'Default',
            project_domain_name=creds.project_domain_name or 'Default')
        if CONF.identity.disable_ssl_certificate_validation:
            verify = False
        else:
            verify = CONF.identity.ca_certificates_file or True
        return client.Client(
            MICROVERSION, session=session.Session(auth=auth, verify=verify),
            region_name=CONF.compute.region or CONF.identity.region,
            endpoint_type=CONF.compute.endpoint_type)

    @staticmethod
    def _seen(group):
        shown = group.to_dict()
        return {k: shown.get(k) for k in ('name', 'policy', 'rules',
                                          'members')}

    def _library(self, what, call, *args, **kwargs):
        """novaclient's answer to ``call``; a refusal or an error status
        from the API is the rule's failed assertion, naming the call."""
        from novaclient import exceptions as nova_exc
        try:
            return call(*args, **kwargs)
        except nova_exc.ClientException as e:
            self.fail('%s: %s was answered %s %s' % (
                LIBRARY_RULE, what, getattr(e, 'code', '?'), e))

    @decorators.idempotent_id('eb8083ac-5729-4854-a1a4-ac952d4d202b')
    def test_rule_max_server_per_host_through_novaclient_library(self):
        nova = self._novaclient()
        name = self._name('novaclient-sg')
        created = self._library(
            'server_groups.create', nova.server_groups.create,
            name=name, policy='anti-affinity', rules=dict(EXPECTED_RULES))
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, created.id)
        expected = {'name': name, 'policy': 'anti-affinity',
                    'rules': EXPECTED_RULES, 'members': []}
        self.assertEqual(expected, self._seen(created),
                         '%s: the created group as novaclient returns it '
                         '(sent policy=anti-affinity, rules=%s)' % (
                             LIBRARY_RULE, EXPECTED_RULES))

        self.assertEqual(expected, self._seen(self._library(
            'server_groups.get', nova.server_groups.get, created.id)),
            '%s: server_groups.get(%s)' % (LIBRARY_RULE, created.id))

        listed = [self._seen(g) for g in self._library(
            'server_groups.list', nova.server_groups.list)
            if g.id == created.id]
        self.assertEqual([expected], listed, '%s: server_groups.list() '
                         'entry of %s' % (LIBRARY_RULE, created.id))

        # The API agrees with what the client returned.
        api = self._api_view(created.id)
        self.assertEqual(expected, {k: api.get(k) for k in expected},
                         '%s: GET /os-server-groups/%s at %s' % (
                             LIBRARY_RULE, created.id, MICROVERSION))

        self._library('server_groups.delete', nova.server_groups.delete,
                      created.id)
        self.assertIsNone(
            server_groups.still_there(self.groups, created.id),
            '%s: the group is gone after server_groups.delete(%s)' % (
                LIBRARY_RULE, created.id))

    @decorators.idempotent_id('3fbc9ee6-0325-456f-b538-99d2e520ba54')
    @decorators.attr(type=['slow'])
    def test_rule_max_server_per_host_through_nova_shell(self):
        if not nova_command():
            # python-novaclient 18.x deprecates the shell; a release
            # without it can only be checked through its library.
            self.skipTest('python-novaclient ships no `nova` shell here: '
                          'install a python-novaclient release that still '
                          'has it (18.x) for the shell check')
        shell = NovaShell(
            CONF, self.os_primary.credentials, SHELL_RULE,
            region=CONF.compute.region or CONF.identity.region,
            interface=CONF.compute.endpoint_type,
            env={'OS_COMPUTE_API_VERSION': MICROVERSION,
                 'OS_ENDPOINT_TYPE': CONF.compute.endpoint_type},
            noise=('nova CLI is deprecated',))
        name = self._name('nova-cli-sg')
        created = shell.table('server-group-create', '--rule',
                              'max_server_per_host=2', name,
                              'anti-affinity')
        self.assertEqual(1, len(created), '%s: one group printed, got %s' % (
            SHELL_RULE, created))
        group_id = created[0].get('Id')
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, group_id)

        def seen(row):
            return {'Name': row.get('Name'),
                    'Policy': parse_mapping(row.get('Policy', '')),
                    'Rules': parse_mapping(row.get('Rules', '')),
                    'Members': parse_mapping(row.get('Members', ''))}

        expected = {'Name': name, 'Policy': 'anti-affinity',
                    'Rules': EXPECTED_RULES, 'Members': []}
        self.assertEqual(expected, seen(created[0]),
                         '%s: the table server-group-create printed' %
                         SHELL_RULE)
        self.assertEqual(expected, seen(shell.table(
            'server-group-get', group_id)[0]),
            '%s: nova server-group-get %s' % (SHELL_RULE, group_id))
        listed = [seen(row) for row in shell.table('server-group-list')
                  if row.get('Id') == group_id]
        self.assertEqual([expected], listed, '%s: nova server-group-list '
                         'row of %s' % (SHELL_RULE, group_id))

        api = self._api_view(group_id)
        self.assertEqual(
            {'name': name, 'policy': 'anti-affinity',
             'rules': EXPECTED_RULES},
            {k: api.get(k) for k in ('name', 'policy', 'rules')},
            '%s: GET /os-server-groups/%s at %s' % (
                SHELL_RULE, group_id, MICROVERSION))

        shell.run('server-group-delete', group_id)
        self.assertIsNone(
            server_groups.still_there(self.groups, group_id),
            '%s: the group is gone after `nova server-group-delete`'
            % SHELL_RULE)
