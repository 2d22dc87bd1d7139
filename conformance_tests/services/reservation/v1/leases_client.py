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
