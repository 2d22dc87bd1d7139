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

"""The placement calls the suite needs to build and remove test topologies.

Tests get it from a Tempest client manager
(``os_admin.conformance_placement_v1.TopologyClient()``), never build it:
the plugin registers it with Tempest's settings for [placement] (catalog
type, endpoint type, region, TLS, timeouts). common/topology.py and
`conformance cleanup` call its methods by name.

Every call sends an explicit microversion. 1.20 is enough for all of them
(parent providers 1.14, aggregates with generations 1.19, provider bodies
on create 1.20) and is far below anything a supported cloud offers.
"""

import json

from tempest.lib.common import rest_client

SETUP_MICROVERSION = '1.20'


class TopologyClient(rest_client.RestClient):

    def get_headers(self, accept_type=None, send_type=None):
        headers = super().get_headers(accept_type, send_type)
        headers['OpenStack-API-Version'] = 'placement %s' % (
            SETUP_MICROVERSION)
        return headers

    def _json(self, method, url, body=None, ok=(200,)):
        resp, data = self.request(
            method, url, body=json.dumps(body) if body is not None else None,
            headers=self.get_headers())
        self.expected_success(list(ok), resp.status)
        return json.loads(data) if data else None

    def create_resource_class(self, name):
        self._json('PUT', '/resource_classes/%s' % name, ok=(201, 204))

    def delete_resource_class(self, name):
        self._json('DELETE', '/resource_classes/%s' % name, ok=(204,))

    def create_provider(self, name, uuid, parent_uuid=None):
        body = {'name': name, 'uuid': uuid}
        if parent_uuid:
            body['parent_provider_uuid'] = parent_uuid
        return self._json('POST', '/resource_providers', body)

    def delete_provider(self, uuid):
        self._json('DELETE', '/resource_providers/%s' % uuid, ok=(204,))

    def set_inventories(self, uuid, generation, inventories):
        return self._json('PUT', '/resource_providers/%s/inventories' % uuid, {
            'resource_provider_generation': generation,
            'inventories': {rc: {'total': total}
                            for rc, total in inventories.items()}})

    def set_aggregates(self, uuid, generation, aggregates):
        return self._json('PUT', '/resource_providers/%s/aggregates' % uuid, {
            'resource_provider_generation': generation,
            'aggregates': list(aggregates)})

    def set_traits(self, uuid, generation, traits):
        return self._json('PUT', '/resource_providers/%s/traits' % uuid, {
            'resource_provider_generation': generation,
            'traits': list(traits)})

    def create_trait(self, name):
        self._json('PUT', '/traits/%s' % name, ok=(201, 204))

    def delete_trait(self, name):
        self._json('DELETE', '/traits/%s' % name, ok=(204,))

    def list_providers(self):
        return self._json('GET', '/resource_providers')['resource_providers']

    def list_resource_classes(self):
        return self._json('GET', '/resource_classes')['resource_classes']

    def list_traits(self):
        return self._json('GET', '/traits')['traits']
