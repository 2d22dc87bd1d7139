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

"""Blazar leases: /leases (api-ref "Leases")."""

from conformance_tests.services.reservation.v1 import base


class LeasesClient(base.ReservationClient):

    def create_lease(self, **lease):
        return self._json('POST', 'leases', 201, lease)

    def show_lease(self, lease_id):
        return self._json('GET', 'leases/%s' % lease_id, 200)

    def list_leases(self):
        return self._json('GET', 'leases', 200)

    def delete_lease(self, lease_id):
        resp, body = self.delete('leases/%s' % lease_id,
                                 headers=self.get_headers())
        self.expected_success(204, resp.status)
        return base.rest_client.ResponseBody(resp, {})
