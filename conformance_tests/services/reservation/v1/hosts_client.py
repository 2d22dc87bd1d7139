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
