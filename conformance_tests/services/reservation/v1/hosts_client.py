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

"""Blazar hosts: /os-hosts (api-ref "Hosts"), operator only."""

from conformance_tests.services.reservation.v1 import base


class HostsClient(base.ReservationClient):

    def create_host(self, **host):
        return self._json('POST', 'os-hosts', 201, host)

    def list_hosts(self):
        return self._json('GET', 'os-hosts', 200)

    def delete_host(self, host_id):
        resp, body = self.delete('os-hosts/%s' % host_id,
                                 headers=self.get_headers())
        self.expected_success(204, resp.status)
        return base.rest_client.ResponseBody(resp, {})
