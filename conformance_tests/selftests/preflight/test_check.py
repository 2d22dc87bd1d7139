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

"""preflight.check against a fake cloud on loopback: each broken conf or
cloud gives its one line, a good one its findings, and no secret ever
leaves."""

import json
import os
import stat
import sys
import time
import types

import fixtures
from oslo_config import cfg
import testtools
import yaml

from conformance_tests import preflight
from conformance_tests.selftests import preflight as fake
from conformance_tests import services
from conformance_tests.services import api

# A short [service-clients] http_timeout where a test waits on purpose.
QUICK = {'service-clients': {'http_timeout': '1'}}


class CheckTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path

    def cloud(self, **kwargs):
        return self.useFixture(fake.FakeCloud(**kwargs))

    def check(self, cloud, sections=None):
        return preflight.check(cloud.write_conf(self.folder, sections))

    def fails(self, cloud, sections=None):
        """The PreflightError, after checking it holds no secret."""
        e = self.assertRaises(preflight.PreflightError, self.check, cloud,
                              sections)
        self.assertNotIn('\n', str(e))
        self.assertNoSecret(cloud, str(e))
        self.assertNoSecret(cloud, json.dumps(e.findings))
        self.assertFalse(e.findings['ok'])
        self.assertEqual(str(e), e.findings['error'])
        return e

    def assertNoSecret(self, cloud, text):
        for secret in cloud.secrets():
            self.assertNotIn(secret, text)

    # -- a good cloud ------------------------------------------------------

    def test_good_cloud_as_admin(self):
        cloud = self.cloud()
        findings = self.check(cloud)
        self.assertTrue(findings['ok'])
        self.assertIsNone(findings['error'])
        self.assertEqual('v3.14', findings['identity']['version'])
        creds = findings['credentials']
        self.assertEqual('dynamic', creds['mode'])
        self.assertTrue(creds['admin']['admin'])
        self.assertEqual(['admin', 'member', 'reader'],
                         creds['admin']['roles'])
        self.assertEqual([], creds['accounts'])
        services = {s['type']: s for s in findings['services']}
        self.assertEqual({'identity', 'compute', 'placement', 'image',
                          'network'}, set(services))
        compute = services['compute']
        self.assertEqual(cloud.services['compute'].url, compute['url'])
        self.assertEqual('v2.1', compute['version'])
        self.assertEqual(['2.1', '2.79'], compute['microversions'])
        self.assertEqual(['2.1', '2.79'],
                         compute['tempest_conf_microversions'])
        self.assertEqual('[service_available] nova = true',
                         compute['enabled_by'])
        self.assertEqual(['1.0', '1.39'],
                         services['placement']['microversions'])
        self.assertEqual(300, services['image']['status'])
        # senlin and blazar are off and absent: said, not checked.
        off = {o['type']: o for o in findings['not_enabled']}
        self.assertEqual({'clustering', 'reservation'}, set(off))
        self.assertFalse(off['clustering']['in_catalog'])
        self.assertLess(findings['seconds'], 5)
        self.assertNoSecret(cloud, json.dumps(findings))
        # Every version document was asked for with a token.
        for service in cloud.services.values():
            self.assertTrue(service.requests)
            self.assertTrue(all(token for _, _, token in service.requests))

    def test_a_member_as_the_dynamic_credentials_admin_is_an_error(self):
        # Tempest would fail every class making its projects (403).
        cloud = self.cloud(users={'admin': {
            'password': fake.ADMIN_PASSWORD, 'project': 'admin',
            'roles': ['member', 'reader']}})
        e = self.assertRaises(preflight.PreflightError, self.check, cloud)
        self.assertEqual(
            '[auth] admin_username admin has no admin role (roles: member, '
            'reader): with a member account set use_dynamic_credentials = '
            'false and list it in a test_accounts_file', str(e))
        self.assertFalse(e.findings['credentials']['admin']['admin'])

    def test_admin_role_is_identity_admin_role(self):
        cloud = self.cloud(users={'admin': {
            'password': fake.ADMIN_PASSWORD, 'project': 'admin',
            'roles': ['cloud-admin']}})
        findings = self.check(cloud, {'identity': {
            'admin_role': 'cloud-admin'}})
        self.assertTrue(findings['credentials']['admin']['admin'])

    def test_senlin_and_blazar_when_enabled(self):
        services = fake.good_services()
        services.update(clustering=fake.clustering(),
                        reservation=fake.reservation())
        cloud = self.cloud(services=services)
        findings = self.check(cloud, {'service_available': {
            'senlin': 'true', 'blazar': 'true'}})
        found = {s['type']: s for s in findings['services']}
        self.assertEqual(['1.0', '1.14'],
                         found['clustering']['microversions'])
        # blazar's versioned URL answers 404 with a token: its root has
        # the version document.
        reservation = found['reservation']
        self.assertEqual(cloud.services['reservation'].url,
                         reservation['url'])
        self.assertEqual(cloud.services['reservation'].listener.url + '/',
                         reservation['version_document'])
        self.assertEqual('v1.0', reservation['version'])

    def test_disabled_service_in_the_catalog_is_said(self):
        services = fake.good_services()
        services['clustering'] = fake.clustering()
        cloud = self.cloud(services=services)
        findings = self.check(cloud)
        self.assertIn('clustering   in the catalog, not tested: '
                      '[service_available] senlin = false',
                      preflight.summary(findings))

    def test_summary(self):
        cloud = self.cloud()
        lines = preflight.summary(self.check(cloud))
        self.assertIn('credentials: dynamic (Tempest creates a project and '
                      'users per test class as the admin)', lines)
        self.assertIn('compute      %s  v2.1, microversions 2.1-2.79 '
                      '(tempest.conf 2.1-2.79)'
                      % cloud.services['compute'].url, lines)
        self.assertTrue(lines[-1].startswith('ok in '))
        self.assertNoSecret(cloud, '\n'.join(lines))

    # -- identity and credentials -----------------------------------------

    def test_unreachable_identity(self):
        cloud = self.cloud()
        uri = 'http://127.0.0.1:%d/v3' % fake.closed_port()
        started = time.monotonic()
        e = self.fails(cloud, {'identity': {'uri_v3': uri}})
        self.assertEqual('[identity] uri_v3 %s: connection refused' % uri,
                         str(e))
        self.assertLess(time.monotonic() - started, 5)

    def test_identity_that_never_answers_within_http_timeout(self):
        # Tempest's deadline, for the connection as for the answer.
        cloud = self.cloud()
        silent = self.useFixture(fake.SilentPort())
        uri = 'http://127.0.0.1:%d/v3' % silent.port
        started = time.monotonic()
        e = self.fails(cloud, {'identity': {'uri_v3': uri},
                               'service-clients': {'http_timeout': '2'}})
        self.assertEqual('[identity] uri_v3 %s: no connection within 2 s '
                         '([service-clients] http_timeout)' % uri, str(e))
        self.assertLess(time.monotonic() - started, 4)

    def test_slow_identity_within_http_timeout_is_not_an_error(self):
        # A busy cloud: every keystone answer takes 2 s; Tempest would
        # wait its http_timeout, so preflight does.
        cloud = self.cloud(identity_delay=2)
        findings = self.check(cloud, {'service-clients': {
            'http_timeout': '5'}})
        self.assertTrue(findings['ok'])
        self.assertGreaterEqual(findings['seconds'], 4)  # GET + a token

    def test_slow_identity_past_http_timeout_names_the_option(self):
        cloud = self.cloud(identity_delay=2)
        e = self.fails(cloud, QUICK)
        self.assertEqual('[identity] uri_v3 %s: connected, but no answer '
                         'within 1 s ([service-clients] http_timeout)'
                         % cloud.uri_v3, str(e))

    def test_http_timeout_that_is_not_seconds(self):
        for text, why in (('soon', 'not a whole number of seconds'),
                          ('0', 'must be 1 or more (seconds Tempest waits '
                                'for an answer)')):
            e = self.fails(self.cloud(), {'service-clients': {
                'http_timeout': text}})
            self.assertEqual('[service-clients] http_timeout = %s: %s'
                             % (text, why), str(e))

    def test_proxy_url_of_service_clients_is_used(self):
        # Tempest's group is [service-clients]; a proxy nothing listens
        # on shows that preflight sends through it.
        proxy = 'http://127.0.0.1:%d' % fake.closed_port()
        e = self.fails(self.cloud(), {'service-clients': {
            'proxy_url': proxy}})
        self.assertIn(': the proxy failed (', str(e))

    def test_identity_uri_that_is_not_identity(self):
        cloud = self.cloud()
        uri = cloud.services['placement'].listener.url + '/nothing/v3'
        e = self.fails(cloud, {'identity': {'uri_v3': uri}})
        self.assertEqual('[identity] uri_v3 %s: answers 404, not '
                         'identity\'s version document' % uri, str(e))

    def test_uri_v3_unset(self):
        e = self.fails(self.cloud(), {'identity': {'uri_v3': None}})
        self.assertEqual('[identity] uri_v3: not set (the suite '
                         'authenticates with identity v3)', str(e))

    def test_wrong_password(self):
        cloud = self.cloud()
        e = self.fails(cloud, {'auth': {
            'admin_password': 'Wr0ng-pass-S3cret'}})
        self.assertEqual('[auth] admin_password: identity refused the '
                         'credentials of admin (401)', str(e))
        self.assertNotIn('Wr0ng-pass-S3cret', json.dumps(e.findings))

    def test_a_password_identity_echoes_is_masked(self):
        cloud = self.cloud(echo_password=True)
        e = self.fails(cloud)
        self.assertIn('identity answered 400 to the credentials of admin',
                      str(e))
        self.assertIn('***', str(e))

    def test_dynamic_credentials_need_an_admin(self):
        e = self.fails(self.cloud(), {'auth': {'admin_username': None}})
        self.assertEqual('[auth] admin_username: not set, and use_dynamic_'
                         'credentials = true needs admin credentials', str(e))

    def test_pre_provisioned_accounts_are_checked_one_by_one(self):
        users = {
            'admin': {'password': fake.ADMIN_PASSWORD, 'project': 'admin',
                      'roles': ['admin']},
            'alice': {'password': 'Al1ce-S3cret-pw', 'project': 'p1',
                      'roles': ['member']},
            'bob': {'password': 'B0b-S3cret-pw', 'project': 'p2',
                    'roles': ['member', 'admin']},
            'carol': {'password': 'C4rol-S3cret-pw', 'project': 'p3',
                      'roles': ['reader']},
        }
        cloud = self.cloud(users=users)
        accounts = [{'username': name, 'password': users[name]['password'],
                     'project_name': users[name]['project'],
                     'roles': users[name]['roles']}
                    for name in ('alice', 'bob', 'carol')]
        path = os.path.join(self.folder, 'accounts.yaml')
        with open(path, 'w') as f:
            yaml.safe_dump(accounts, f)
        sections = {'auth': {'use_dynamic_credentials': 'false',
                             'test_accounts_file': path,
                             'admin_username': None}}
        findings = self.check(cloud, sections)
        self.assertEqual(['alice', 'bob', 'carol'],
                         sorted(cloud.auth_requests))
        creds = findings['credentials']
        self.assertEqual('pre-provisioned', creds['mode'])
        self.assertIsNone(creds['admin'])
        self.assertEqual([('alice', False), ('bob', True),
                          ('carol', False)],
                         [(a['user'], a['admin']) for a in creds['accounts']])
        self.assertEqual('account 1 (user alice, project p1)',
                         findings['catalog_of'])
        self.assertIn('credentials: pre-provisioned, [auth] '
                      'test_accounts_file %s: 3 accounts authenticated, 1 '
                      'admin, 2 member' % path, preflight.summary(findings))
        self.assertNoSecret(cloud, json.dumps(findings))

        # The second account's password is wrong: that one is named.
        accounts[1]['password'] = 'wr0ng-S3cret'
        with open(path, 'w') as f:
            yaml.safe_dump(accounts, f)
        e = self.fails(cloud, sections)
        self.assertEqual('[auth] test_accounts_file %s: identity refused '
                         'the credentials of account 2 (user bob, project '
                         'p2) (401)' % path, str(e))
        self.assertNotIn('wr0ng-S3cret', json.dumps(e.findings))

    def test_pre_provisioned_and_the_admin(self):
        users = {'admin': {'password': fake.ADMIN_PASSWORD,
                           'project': 'admin', 'roles': ['admin']},
                 'alice': {'password': 'Al1ce-S3cret-pw', 'project': 'p1',
                           'roles': ['member']}}
        cloud = self.cloud(users=users)
        path = os.path.join(self.folder, 'accounts.yaml')
        with open(path, 'w') as f:
            yaml.safe_dump([{'username': 'alice',
                             'password': 'Al1ce-S3cret-pw',
                             'project_name': 'p1'}], f)
        findings = self.check(cloud, {'auth': {
            'use_dynamic_credentials': 'false', 'test_accounts_file': path}})
        self.assertEqual(['admin', 'alice'], sorted(cloud.auth_requests))
        self.assertTrue(findings['credentials']['admin']['admin'])
        self.assertEqual('alice',
                         findings['credentials']['accounts'][0]['user'])

    def test_accounts_sharing_a_project_are_refused(self):
        # A quota test counts its project's servers while another class
        # boots in the same project: false verdicts, so one line first.
        cloud = self.cloud()
        path = os.path.join(self.folder, 'accounts.yaml')
        with open(path, 'w') as f:
            yaml.safe_dump([
                {'username': 'alice', 'password': 'Al1ce-S3cret-pw',
                 'project_name': 'p1'},
                {'username': 'bob', 'password': 'B0b-S3cret-pw',
                 'project_name': 'p2'},
                {'username': 'carol', 'password': 'C4rol-S3cret-pw',
                 'project_name': 'p1'}], f)
        e = self.fails(cloud, {'auth': {
            'use_dynamic_credentials': 'false', 'test_accounts_file': path,
            'admin_username': None}})
        self.assertIn('account 1 (user alice, project p1) and account 3 '
                      '(user carol, project p1) share project p1', str(e))
        self.assertIn('give each account a project of its own', str(e))
        self.assertEqual([], cloud.auth_requests)

    def test_accounts_file_needed_without_dynamic_credentials(self):
        e = self.fails(self.cloud(), {'auth': {
            'use_dynamic_credentials': 'false'}})
        self.assertEqual('[auth] test_accounts_file: not set, and use_'
                         'dynamic_credentials = false needs pre-provisioned '
                         'accounts', str(e))

    def test_accounts_file_missing_or_malformed(self):
        path = os.path.join(self.folder, 'nowhere.yaml')
        sections = {'auth': {'use_dynamic_credentials': 'false',
                             'test_accounts_file': path}}
        e = self.fails(self.cloud(), sections)
        self.assertEqual('[auth] test_accounts_file %s: No such file or '
                         'directory' % path, str(e))
        with open(path, 'w') as f:
            yaml.safe_dump([{'username': 'alice', 'project_name': 'p'}], f)
        e = self.fails(self.cloud(), sections)
        self.assertEqual('[auth] test_accounts_file %s: account 1 has no '
                         'password' % path, str(e))

    # -- catalog, endpoints, microversions ---------------------------------

    def test_service_missing_from_the_catalog(self):
        cloud = self.cloud()
        e = self.fails(cloud, {'service_available': {'senlin': 'true'}})
        self.assertEqual('[service_available] senlin = true but the catalog '
                         'has no clustering endpoint (interface public, '
                         'region RegionOne)', str(e))

    def test_service_missing_enabled_by_default(self):
        services = fake.good_services()
        del services['network']
        e = self.fails(self.cloud(services=services),
                       {'service_available': {'neutron': None}})
        self.assertEqual('[service_available] neutron = true (default) but '
                         'the catalog has no network endpoint (interface '
                         'public, region RegionOne)', str(e))

    def test_catalog_type_set_in_the_conf(self):
        e = self.fails(self.cloud(), {'compute': {
            'catalog_type': 'computev21'}})
        self.assertEqual('[compute] catalog_type computev21: the catalog has '
                         'no computev21 endpoint (interface public, region '
                         'RegionOne)', str(e))

    def test_interface_not_in_the_catalog(self):
        services = fake.good_services()
        services['placement'] = fake.Service(
            'placement', '/', {'/': (200, fake.PLACEMENT_DOC)},
            interfaces=('internal',))
        e = self.fails(self.cloud(services=services))
        self.assertEqual('[placement] endpoint_type public: the catalog\'s '
                         'placement endpoints have interface internal, not '
                         'public', str(e))
        # publicURL, internalURL are the interfaces public, internal.
        findings = self.check(self.cloud(services=services), {'placement': {
            'endpoint_type': 'internalURL'}})
        self.assertEqual('internal', {s['type']: s for s in findings[
            'services']}['placement']['interface'])

    def test_region_not_in_the_catalog(self):
        e = self.fails(self.cloud(), {'compute': {'region': 'RegionTwo'}})
        self.assertEqual('[compute] region RegionTwo: the catalog\'s compute '
                         'endpoints (interface public) are in region '
                         'RegionOne', str(e))
        e = self.fails(self.cloud(), {'identity': {'region': 'RegionTwo'}})
        self.assertEqual('[identity] region RegionTwo: the catalog\'s '
                         'identity endpoints (interface public) are in '
                         'region RegionOne', str(e))

    def test_endpoint_that_answers_404(self):
        services = fake.good_services()
        services['compute'] = fake.Service('compute', '/v2.1', {})
        cloud = self.cloud(services=services)
        e = self.fails(cloud)
        root = services['compute'].listener.url
        self.assertEqual(
            '[service_available] nova = true but the compute endpoint '
            '%s/v2.1 (interface public, region RegionOne) answers 404, and '
            'no version document is at %s/' % (root, root), str(e))

    def test_endpoint_that_refuses_connections(self):
        services = fake.good_services()
        services['image'] = fake.Service('image', '/', {}, closed=True)
        e = self.fails(self.cloud(services=services))
        self.assertEqual(
            '[service_available] glance = true but the image endpoint %s '
            '(interface public, region RegionOne): connection refused'
            % services['image'].url, str(e))

    def test_endpoint_that_never_answers(self):
        silent = self.useFixture(fake.SilentPort())
        services = fake.good_services()
        services['network'] = fake.Service('network', '/', {}, closed=True)
        services['network'].url = 'http://127.0.0.1:%d/' % silent.port
        started = time.monotonic()
        e = self.fails(self.cloud(services=services), QUICK)
        self.assertEqual(
            '[service_available] neutron = true but the network endpoint %s '
            '(interface public, region RegionOne): no connection within '
            '1 s ([service-clients] http_timeout)' % services['network'].url,
            str(e))
        self.assertLess(time.monotonic() - started, 3)

    def test_redirects_stay_on_the_endpoint_host(self):
        elsewhere = fake.Service('compute', '/', {
            '/': (200, fake.COMPUTE_DOC)})
        self.addCleanup(elsewhere.stop)
        services = fake.good_services()
        services['compute'] = fake.Service('compute', '/v2.1', {
            # Same host: followed.
            '/v2.1': (302, None, {'Location': '/v2.1/'}),
            '/v2.1/': (200, fake.COMPUTE_DOC)})
        services['image'] = fake.Service('image', '/', {
            # Another host: not followed, the token stays here.
            '/': (302, None, {'Location': elsewhere.url})})
        e = self.fails(self.cloud(services=services))
        self.assertEqual([], elsewhere.requests)
        self.assertEqual(
            '[service_available] glance = true but the image endpoint %s '
            '(interface public, region RegionOne) answers 302'
            % services['image'].url, str(e))
        compute = {s['type']: s for s in e.findings['services']}['compute']
        self.assertEqual('v2.1', compute['version'])

    def test_microversion_too_new_for_the_cloud(self):
        e = self.fails(self.cloud(), {'compute': {
            'max_microversion': '2.95'}})
        self.assertEqual('[compute] max_microversion 2.95: the cloud offers '
                         '2.1-2.79', str(e))
        # What was found is still written down.
        compute = {s['type']: s for s in e.findings['services']}['compute']
        self.assertEqual(['2.1', '2.79'], compute['microversions'])

    def test_placement_microversion_outside_the_range(self):
        e = self.fails(self.cloud(), {'placement': {
            'min_microversion': '0.9'}})
        self.assertEqual('[placement] min_microversion 0.9: the cloud offers '
                         '1.0-1.39', str(e))

    def test_latest_and_unset_microversions_pass(self):
        findings = self.check(self.cloud(), {
            'compute': {'max_microversion': 'latest'},
            'placement': {'min_microversion': None,
                          'max_microversion': None}})
        self.assertTrue(findings['ok'])

    def test_a_new_api_is_checked_from_its_declaration(self):
        # One registry line and the API's declaration: preflight names no
        # API of its own.
        class Widget(api.Api):
            name = 'conformance_widget_v1'
            catalog_type = 'widget'
            service_option = cfg.BoolOpt('widget', default=False)

        module = types.ModuleType('conformance_throwaway_preflight')
        module.API = Widget()
        sys.modules[module.__name__] = module
        self.addCleanup(sys.modules.pop, module.__name__, None)
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.services.REGISTERED',
            services.REGISTERED + (module.__name__,)))
        cloud = self.cloud()
        self.assertEqual([], [s for s in self.check(cloud)['services']
                              if s['type'] == 'widget'])
        e = self.fails(cloud, {'service_available': {'widget': 'true'}})
        self.assertEqual('[service_available] widget = true but the catalog '
                         'has no widget endpoint (interface public, region '
                         'RegionOne)', str(e))

    # -- the file ----------------------------------------------------------

    def test_bad_flag(self):
        e = self.fails(self.cloud(), {'service_available': {
            'senlin': 'maybe'}})
        self.assertEqual('[service_available] senlin = maybe: not true or '
                         'false', str(e))

    def test_not_a_tempest_conf(self):
        path = os.path.join(self.folder, 'x.conf')
        with open(path, 'w') as f:
            f.write('just text\n')
        e = self.assertRaises(preflight.PreflightError, preflight.check,
                              path)
        self.assertIn('is not a tempest.conf (INI) file', str(e))
        e = self.assertRaises(preflight.PreflightError, preflight.check,
                              path + '.missing')
        self.assertEqual('--tempest-conf %s.missing: no such file' % path,
                         str(e))

    def test_default_section_is_not_every_group(self):
        # configparser would read [DEFAULT] region as [compute] region.
        findings = self.check(self.cloud(), {'DEFAULT': {
            'region': 'RegionTwo'}})
        self.assertTrue(findings['ok'])

    def test_write_is_private_and_holds_no_secret(self):
        cloud = self.cloud()
        findings = self.check(cloud)
        workdir = os.path.join(self.folder, 'work')
        path = preflight.write(findings, workdir)
        self.assertEqual(os.path.join(workdir, 'preflight.json'), path)
        self.assertEqual(0o600, stat.S_IMODE(os.stat(path).st_mode))
        with open(path) as f:
            text = f.read()
        self.assertEqual(findings, json.loads(text))
        self.assertNoSecret(cloud, text)
