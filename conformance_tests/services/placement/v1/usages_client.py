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

"""What placement counts as used: for the quota tests of seed 001, and the
room left on a host for the freepool-full test of seed 004."""

import json

from tempest.lib.common import rest_client

# GET /usages exists from 1.9; nothing later changes its answer.
USAGES_MICROVERSION = '1.9'


class UsagesClient(rest_client.RestClient):

    def usages(self, project_id, user_id=None):
        """GET /usages: {resource class: amount in use}."""
        url = '/usages?project_id=%s' % project_id
        if user_id:
            url += '&user_id=%s' % user_id
        headers = self.get_headers()
        headers['OpenStack-API-Version'] = 'placement %s' % (
            USAGES_MICROVERSION)
        resp, body = self.get(url, headers=headers)
        self.expected_success(200, resp.status)
        return json.loads(body)['usages']

    def _get(self, url):
        headers = self.get_headers()
        headers['OpenStack-API-Version'] = 'placement %s' % (
            USAGES_MICROVERSION)
        resp, body = self.get(url, headers=headers)
        self.expected_success(200, resp.status)
        return json.loads(body)

    def room(self, provider_name, resource_class):
        """What one more allocation of ``resource_class`` may take on the
        provider named ``provider_name``: ``(free, max_unit)``, free being
        (total - reserved) * allocation_ratio - used, as placement counts
        it when it picks candidates."""
        providers = self._get('/resource_providers?name=%s' % (
            provider_name))['resource_providers']
        if len(providers) != 1:
            raise ValueError('%d resource providers named %s' % (
                len(providers), provider_name))
        uuid = providers[0]['uuid']
        inventory = self._get('/resource_providers/%s/inventories' % uuid)[
            'inventories'][resource_class]
        used = self._get('/resource_providers/%s/usages' % uuid)[
            'usages'].get(resource_class, 0)
        free = int((inventory['total'] - inventory['reserved'])
                   * inventory['allocation_ratio']) - used
        return free, inventory['max_unit']
