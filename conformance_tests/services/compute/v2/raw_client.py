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

"""Compute API calls with an explicit microversion and no response schema.

The seed-001 tests check exact down-cell records and must see a 500 where
nova gives one, so they read raw JSON instead of Tempest's schema-checked
bodies and get every status back instead of an exception.

Tests get it from a Tempest client manager
(``os_primary.conformance_compute_v2.RawComputeClient()``): the plugin
registers it with Tempest's settings for [compute].
"""

import json

from tempest.lib.common import rest_client


class RawComputeClient(rest_client.RestClient):

    def _error_checker(self, resp, resp_body):
        """Return every status to the caller; the tests judge it."""

    def call(self, method, url, microversion, body=None):
        """Return (status, decoded body or None)."""
        headers = self.get_headers()
        headers['OpenStack-API-Version'] = 'compute %s' % microversion
        headers['X-OpenStack-Nova-API-Version'] = microversion
        resp, data = self.request(
            method, url, headers=headers,
            body=json.dumps(body) if body is not None else None)
        try:
            decoded = json.loads(data) if data else None
        except ValueError:
            decoded = None
        return resp.status, decoded

    def get(self, url, microversion):
        status, body = self.call('GET', url, microversion)
        if status != 200:
            raise AssertionError('GET %s at %s -> %s %s' % (
                url, microversion, status, str(body)[:300]))
        return body
