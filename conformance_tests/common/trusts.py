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

"""A second user in a project, without admin: a keystone trust.

A test of per-user rules needs two users of one project. An admin makes
the second user; a project member cannot, but any user may delegate its
roles in its project to another user through a trust (keystone's
default policy: identity:create_trust is the trustor's own call). The
trustee (Tempest's alt account) then authenticates with the trust's
scope and acts in the trustor's project as itself: nova records its
servers under the trustee's user id, so per-user quota counts them as
that user's. Tempest says whether the cloud's keystone has trusts:
[identity-feature-enabled] trust.
"""

import copy
import json

from tempest.lib import auth
from tempest.lib.common.utils import test_utils


def trust_auth_body(credentials, trust_id):
    """The token request of ``credentials`` (a password user) scoped to
    trust ``trust_id``."""
    user = {'password': credentials.password}
    if credentials.user_id:
        user['id'] = credentials.user_id
    else:
        user['name'] = credentials.username
        if credentials.user_domain_id:
            user['domain'] = {'id': credentials.user_domain_id}
        else:
            user['domain'] = {
                'name': credentials.user_domain_name or 'Default'}
    return {'auth': {
        'identity': {'methods': ['password'], 'password': {'user': user}},
        'scope': {'OS-TRUST:trust': {'id': trust_id}}}}


class TrustScopedAuthProvider(auth.KeystoneV3AuthProvider):
    """Trust-scoped tokens of the trustee ``credentials``: every request
    acts in the trustor's project, with the delegated roles."""

    def __init__(self, credentials, auth_url, trust_id, **kwargs):
        self.trust_id = trust_id
        super().__init__(credentials, auth_url, **kwargs)

    def _get_auth(self):
        client = self.auth_client
        resp, body = client.post(client.auth_url, body=json.dumps(
            trust_auth_body(self.credentials, self.trust_id)))
        client.expected_success(201, resp.status)
        return resp['x-subject-token'], body['token']


def delegate(trustor, trustee, add_cleanup):
    """Trust the user of manager ``trustee`` with the roles the user of
    manager ``trustor`` has in its project; ``add_cleanup`` registers
    the trust's deletion. Returns an auth provider of the trustee's
    trust-scoped tokens."""
    mine = trustor.credentials
    roles = trustor.auth_provider.get_auth()[1]['roles']
    trust = trustor.trusts_client.create_trust(
        trustor_user_id=mine.user_id,
        trustee_user_id=trustee.credentials.user_id,
        project_id=mine.project_id, impersonation=False,
        roles=[{'id': role['id']} for role in roles])['trust']
    add_cleanup(test_utils.call_and_ignore_notfound_exc,
                trustor.trusts_client.delete_trust, trust['id'])
    own = trustee.auth_provider
    return TrustScopedAuthProvider(
        copy.copy(trustee.credentials), own.auth_url, trust['id'],
        disable_ssl_certificate_validation=own.dscv, ca_certs=own.ca_certs,
        trace_requests=own.trace_requests, http_timeout=own.http_timeout,
        proxy_url=own.proxy_url)


def with_auth(client, auth_provider):
    """A copy of Tempest service client ``client`` (same endpoint filters,
    timeouts, microversion) that authenticates through
    ``auth_provider``."""
    other = copy.copy(client)
    other.auth_provider = auth_provider
    return other
