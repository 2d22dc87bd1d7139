"""Senlin's v1 API: what seed 002 (the affinity policy) drives.

One client: profiles, policies, clusters, nodes, actions and the
cluster-policy bindings. Every call sends an explicit clustering
microversion; asynchronous calls return the id of the action senlin
queued, and ``wait_for_action`` polls it to an end state. Polls back
off as common/waiters' do: from [conformance] poll_interval up to the
client's build_interval, within its build_timeout.
"""

import json
import time

from tempest.lib.common import rest_client
from tempest.lib import exceptions as lib_exc

from conformance_tests.common import waiters

# 1.2 adds POST /v1/policies/validate; nothing later changes what the
# seed checks, so every request speaks it.
MICROVERSION = '1.2'
END_STATES = ('SUCCEEDED', 'FAILED', 'CANCELLED')


def _listing(url, global_project):
    # global_project: every project's (admin only), for the cleanup
    return url + ('?global_project=true' if global_project else '')


class ActionTimeout(lib_exc.TimeoutException):
    message = 'Senlin action did not end in time: %(detail)s'


class ClusteringClient(rest_client.RestClient):

    def get_headers(self, accept_type=None, send_type=None):
        headers = super().get_headers(accept_type, send_type)
        headers['OpenStack-API-Version'] = 'clustering %s' % MICROVERSION
        return headers

    def _json(self, method, url, body=None, expected=(200,)):
        data = None if body is None else json.dumps(body)
        resp, raw = self.request(method, url, headers=self.get_headers(),
                                 body=data)
        self.expected_success(list(expected), resp.status)
        return resp, (json.loads(raw) if raw else None) or {}

    @staticmethod
    def _action_of(resp, body):
        """The action id of a 202: senlin puts it in the body or the
        Location header (/actions/<id>), depending on the call."""
        if 'action' in body and isinstance(body['action'], str):
            return body['action']
        return resp['location'].rstrip('/').rsplit('/', 1)[-1]

    # -- profiles and policies ---------------------------------------------
    def create_profile(self, name, spec):
        _, body = self._json('POST', 'v1/profiles', {
            'profile': {'name': name, 'spec': spec}}, (201,))
        return body['profile']

    def delete_profile(self, profile_id):
        self._json('DELETE', 'v1/profiles/%s' % profile_id, None, (204,))

    def create_policy(self, name, spec):
        _, body = self._json('POST', 'v1/policies', {
            'policy': {'name': name, 'spec': spec}}, (201,))
        return body['policy']

    def validate_policy(self, spec):
        _, body = self._json('POST', 'v1/policies/validate', {
            'policy': {'spec': spec}}, (200,))
        return body['policy']

    def submit_policy(self, path, spec, name=None):
        """POST a policy spec to ``v1/policies`` or ``v1/policies/
        validate`` and return (status, body) whatever the status: the
        refusal tests judge both."""
        policy = {'spec': spec}
        if name:
            policy['name'] = name
        try:
            resp, raw = self.request(
                'POST', path, headers=self.get_headers(),
                body=json.dumps({'policy': policy}))
        except lib_exc.RestClientException as e:
            # Tempest's errors keep the response and its decoded body.
            resp = getattr(e, 'resp', None)
            if resp is None:
                raise
            return int(resp.status), e.resp_body
        return resp.status, json.loads(raw) if raw else {}

    def delete_policy(self, policy_id):
        self._json('DELETE', 'v1/policies/%s' % policy_id, None, (204,))

    def list_policies(self, global_project=False):
        return self._json('GET', _listing('v1/policies', global_project))[1][
            'policies']

    def list_profiles(self, global_project=False):
        return self._json('GET', _listing('v1/profiles', global_project))[1][
            'profiles']

    # -- clusters and nodes --------------------------------------------------
    def create_cluster(self, name, profile_id, desired_capacity=0,
                       max_size=-1):
        resp, body = self._json('POST', 'v1/clusters', {'cluster': {
            'name': name, 'profile_id': profile_id,
            'desired_capacity': desired_capacity, 'min_size': 0,
            'max_size': max_size}}, (202,))
        return body['cluster'], self._action_of(resp, body)

    def show_cluster(self, cluster_id):
        return self._json('GET', 'v1/clusters/%s' % cluster_id)[1][
            'cluster']

    def list_clusters(self, global_project=False):
        return self._json('GET', _listing('v1/clusters', global_project))[1][
            'clusters']

    def delete_cluster(self, cluster_id):
        resp, body = self._while_locked(
            'DELETE', 'v1/clusters/%s' % cluster_id, None, (202,))
        return self._action_of(resp, body)

    def cluster_action(self, cluster_id, action, params):
        resp, body = self._while_locked(
            'POST', 'v1/clusters/%s/actions' % cluster_id,
            {action: params}, (202,))
        return self._action_of(resp, body)

    def _while_locked(self, method, url, body, expected):
        """Senlin refuses (409) an action on a cluster another action
        still holds, e.g. a failed scale-out removing its node: retry
        until the lock goes or build_timeout passes."""
        deadline = time.monotonic() + self.build_timeout
        intervals = self._poll_intervals()
        while True:
            try:
                return self._json(method, url, body, expected)
            except lib_exc.Conflict as e:
                if ('locked' not in str(e.resp_body) or
                        time.monotonic() > deadline):
                    raise
            time.sleep(next(intervals))

    def attach_policy(self, cluster_id, policy_id):
        return self.cluster_action(cluster_id, 'policy_attach', {
            'policy_id': policy_id, 'enabled': True})

    def detach_policy(self, cluster_id, policy_id):
        return self.cluster_action(cluster_id, 'policy_detach', {
            'policy_id': policy_id})

    def scale_out(self, cluster_id, count=None):
        """Scale out by ``count``; None sends no count (a scaling policy
        or senlin's default decides)."""
        return self.cluster_action(cluster_id, 'scale_out',
                                   {} if count is None else {'count': count})

    def resize(self, cluster_id, capacity):
        return self.cluster_action(cluster_id, 'resize', {
            'adjustment_type': 'EXACT_CAPACITY', 'number': capacity,
            'strict': True})

    def list_bindings(self, cluster_id):
        return self._json('GET', 'v1/clusters/%s/policies' % cluster_id)[
            1]['cluster_policies']

    def show_binding(self, cluster_id, policy_id):
        return self._json('GET', 'v1/clusters/%s/policies/%s' % (
            cluster_id, policy_id))[1]['cluster_policy']

    def create_node(self, name, profile_id, cluster_id):
        resp, body = self._json('POST', 'v1/nodes', {'node': {
            'name': name, 'profile_id': profile_id,
            'cluster_id': cluster_id}}, (202,))
        return body['node'], self._action_of(resp, body)

    def list_nodes(self, cluster_id=None):
        url = 'v1/nodes'
        if cluster_id:
            url += '?cluster_id=%s' % cluster_id
        return self._json('GET', url)[1]['nodes']

    # -- actions ----------------------------------------------------------
    def show_action(self, action_id):
        return self._json('GET', 'v1/actions/%s' % action_id)[1]['action']

    def list_actions(self, target):
        return self._json('GET', 'v1/actions?target=%s' % target)[1][
            'actions']

    def wait_for_action(self, action_id, what=''):
        """Poll until the action ends; return it (any end state)."""
        deadline = time.monotonic() + self.build_timeout
        intervals = self._poll_intervals()
        while True:
            action = self.show_action(action_id)
            if action['status'] in END_STATES:
                return action
            if time.monotonic() > deadline:
                raise ActionTimeout(detail='%s %s still %s after %s s' % (
                    what or action.get('action'), action_id,
                    action['status'], self.build_timeout))
            time.sleep(next(intervals))

    def _poll_intervals(self):
        return waiters.poll_intervals(cap=self.build_interval)
