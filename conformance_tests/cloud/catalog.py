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

"""Service users and catalog entries, registered through keystone's API.

The launcher talks to the running keystone exactly as an operator's
deployment tool would, so the catalog Tempest reads is keystone's own.
"""

from conformance_tests.cloud import http


def admin_token(identity_uri, admin, ca_file=None):
    body = {'auth': {
        'identity': {'methods': ['password'], 'password': {'user': {
            'name': admin['username'], 'domain': {'id': 'default'},
            'password': admin['password']}}},
        'scope': {'project': {'name': admin['project_name'],
                              'domain': {'id': 'default'}}}}}
    _, headers, _ = http.request('POST', identity_uri + '/auth/tokens', body,
                                 ca_file=ca_file)
    return headers['X-Subject-Token']


class Registrar(object):
    def __init__(self, identity_uri, token, region, ca_file=None):
        self.uri = identity_uri
        self.ca_file = ca_file
        self.token = token
        self.region = region
        self._roles = None

    def _call(self, method, path, body=None):
        return http.request(method, self.uri + path, body, token=self.token,
                            ca_file=self.ca_file)[2]

    def role_id(self, name):
        if self._roles is None:
            self._roles = {r['name']: r['id']
                           for r in self._call('GET', '/roles')['roles']}
        return self._roles[name]

    def project(self, name):
        found = self._call('GET', '/projects?name=%s' % name)['projects']
        if found:
            return found[0]['id']
        return self._call('POST', '/projects', {'project': {
            'name': name, 'domain_id': 'default'}})['project']['id']

    def service_user(self, user, project_id, roles=('admin', 'service')):
        user_id = self._call('POST', '/users', {'user': {
            'name': user['username'], 'password': user['password'],
            'domain_id': 'default', 'default_project_id': project_id}}
        )['user']['id']
        for role in roles:
            self._call('PUT', '/projects/%s/users/%s/roles/%s' % (
                project_id, user_id, self.role_id(role)))
        return user_id

    def service(self, name, service_type, url):
        service_id = self._call('POST', '/services', {'service': {
            'name': name, 'type': service_type, 'enabled': True}}
        )['service']['id']
        for interface in ('public', 'internal', 'admin'):
            self._call('POST', '/endpoints', {'endpoint': {
                'service_id': service_id, 'interface': interface,
                'region_id': self.region, 'url': url}})
        return service_id
