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

"""What blazar's v1 clients share: JSON bodies and the version header.

Blazar's API reference fixes each call's success status; the clients
check it with Tempest's ``expected_success`` so a wrong status is an
assertion failure naming the call, and they return ``(resp, body)`` only
through methods the tests need.
"""

import json

from tempest.lib.common import rest_client

# Blazar's v1 microversion header; 1.0 is the only one blazar 18 serves
# below its maximum and the one the API reference documents the calls in.
MICROVERSION = '1.0'


class ReservationClient(rest_client.RestClient):

    def get_headers(self, accept_type=None, send_type=None):
        headers = super().get_headers(accept_type, send_type)
        headers['OpenStack-API-Version'] = 'reservation %s' % MICROVERSION
        return headers

    def _json(self, method, url, expected, body=None):
        payload = None if body is None else json.dumps(body)
        resp, raw = self.request(method, url, headers=self.get_headers(),
                                 body=payload)
        self.expected_success(expected, resp.status)
        return rest_client.ResponseBody(
            resp, json.loads(raw) if raw else {})
