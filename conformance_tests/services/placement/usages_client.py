"""What placement counts as used, for the quota tests of seed 001."""

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
