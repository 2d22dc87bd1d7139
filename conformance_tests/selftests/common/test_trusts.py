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

"""common/trusts.py: a second user of a project without admin, through a
keystone trust. Fake clients; no cloud."""

import json
import types

from tempest.lib import auth
import testtools

from conformance_tests.common import trusts


def creds(**kwargs):
    kwargs.setdefault('password', 'secret')
    return auth.KeystoneV3Credentials(**kwargs)


class _Resp(dict):
    status = 201


class _TokenClient(object):
    auth_url = 'http://keystone/v3/auth/tokens'

    def __init__(self):
        self.posted = []

    def post(self, url, body):
        self.posted.append((url, json.loads(body)))
        return _Resp({'x-subject-token': 'trust-token'}), {
            'token': {'expires_at': '2999-01-01T00:00:00.000000Z',
                      'project': {'id': 'trustor-project'}}}

    def expected_success(self, expected, status):
        assert expected == status


class _Trusts(object):
    def __init__(self):
        self.made, self.deleted = [], []

    def create_trust(self, **kwargs):
        self.made.append(kwargs)
        return {'trust': {'id': 'trust-1'}}

    def delete_trust(self, trust_id):
        self.deleted.append(trust_id)


def manager(user_id, project_id, roles=()):
    provider = types.SimpleNamespace(
        auth_url='http://keystone/v3', dscv=False, ca_certs=None,
        trace_requests='', http_timeout=None, proxy_url=None,
        get_auth=lambda: ('token', {'roles': list(roles)}))
    return types.SimpleNamespace(
        credentials=creds(user_id=user_id, project_id=project_id),
        auth_provider=provider, trusts_client=_Trusts())


class TrustsTest(testtools.TestCase):

    def test_token_request_is_scoped_to_the_trust(self):
        self.assertEqual(
            {'auth': {'identity': {'methods': ['password'], 'password': {
                'user': {'id': 'u-b', 'password': 'secret'}}},
                'scope': {'OS-TRUST:trust': {'id': 't1'}}}},
            trusts.trust_auth_body(creds(user_id='u-b'), 't1'))
        by_name = trusts.trust_auth_body(
            creds(username='bob', user_domain_name='Dom'), 't1')
        self.assertEqual({'name': 'bob', 'password': 'secret',
                          'domain': {'name': 'Dom'}},
                         by_name['auth']['identity']['password']['user'])

    def test_delegates_the_trustors_roles_in_its_project(self):
        trustor = manager('u-a', 'p-a', roles=[
            {'id': 'r-member', 'name': 'member'},
            {'id': 'r-reader', 'name': 'reader'}])
        trustee = manager('u-b', 'p-b')
        cleanups = []
        provider = trusts.delegate(
            trustor, trustee, lambda f, *a: cleanups.append((f, a)))
        self.assertEqual([{
            'trustor_user_id': 'u-a', 'trustee_user_id': 'u-b',
            'project_id': 'p-a', 'impersonation': False,
            'roles': [{'id': 'r-member'}, {'id': 'r-reader'}]}],
            trustor.trusts_client.made)
        self.assertEqual('trust-1', provider.trust_id)
        self.assertEqual('u-b', provider.credentials.user_id)
        # The trustee's own credentials object is not the provider's.
        self.assertIsNot(trustee.credentials, provider.credentials)
        for function, args in cleanups:
            function(*args)
        self.assertEqual(['trust-1'], trustor.trusts_client.deleted)

    def test_provider_authenticates_with_the_trust(self):
        provider = trusts.TrustScopedAuthProvider(
            creds(user_id='u-b'), 'http://keystone/v3', 'trust-1')
        provider.auth_client = _TokenClient()
        token, data = provider._get_auth()
        self.assertEqual('trust-token', token)
        self.assertEqual('trustor-project', data['project']['id'])
        url, body = provider.auth_client.posted[0]
        self.assertEqual({'OS-TRUST:trust': {'id': 'trust-1'}},
                         body['auth']['scope'])

    def test_with_auth_copies_the_client(self):
        client = types.SimpleNamespace(auth_provider='own', service='compute')
        other = trusts.with_auth(client, 'trust')
        self.assertEqual(('trust', 'compute'),
                         (other.auth_provider, other.service))
        self.assertEqual('own', client.auth_provider)
