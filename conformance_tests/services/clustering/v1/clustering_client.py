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

"""Senlin's v1 API: what seed 002 (the affinity policy) drives.

One client: profiles, policies, clusters, nodes, actions and the
cluster-policy bindings. Every call sends an explicit clustering
microversion; asynchronous calls return the id of the action senlin
queued, and ``wait_for_action`` polls it to an end state. Polls back
off as common/waiters' do: from [conformance] poll_interval up to the
client's build_interval, within its build_timeout.

A senlin engine can leave an action WAITING for ever: every action it
waits for has ended, but the engine never resumes it (Debian's senlin 14
on Python 3.11 does, after a SystemError in the engine), and the action
keeps its cluster locked. Senlin re-checks a WAITING action every 3 s,
so one that waits on nothing unfinished for STUCK_SECONDS is stuck:
``wait_for_action`` says so then (ActionStuck) instead of spending the
whole build_timeout, and ``release_cluster`` force-cancels it (PATCH
/v1/actions/{id}?force=true, clustering 1.12) so that the cluster can be
deleted (with ?force=true, 1.8, when its status still refuses a delete).
"""

import json
import time

from tempest.lib.common import rest_client
from tempest.lib import exceptions as lib_exc

from conformance_tests.common import waiters

# 1.2 adds POST /v1/policies/validate; nothing later changes what the
# seed checks, so every request speaks it.
MICROVERSION = '1.2'
# Senlin's own escape hatches for what its engine left behind: a forced
# cluster delete (1.8) and an action update that force-cancels (1.12).
FORCE_DELETE_MICROVERSION = '1.8'
# 1.5: a policy type's support_status (its versions, their status and
# since when).
TYPE_STATUS_MICROVERSION = '1.5'
ACTION_UPDATE_MICROVERSION = '1.12'
END_STATES = ('SUCCEEDED', 'FAILED', 'CANCELLED')
# 15 of senlin's 3-second re-checks missed: no load seen here delays one
# by more than a few seconds.
STUCK_SECONDS = 45


def _listing(url, global_project):
    # global_project: every project's (admin only), for the cleanup
    return url + ('?global_project=true' if global_project else '')


class ActionTimeout(lib_exc.TimeoutException):
    message = 'Senlin action did not end in time: %(detail)s'


class ActionStuck(lib_exc.TempestException):
    """``action`` (as shown) waits on nothing and is never resumed."""
    message = 'Senlin action stuck: %(detail)s'

    def __init__(self, action, detail):
        super().__init__(detail=detail)
        self.action = action
        self.detail = detail


class ClusteringClient(rest_client.RestClient):

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # ids of the actions wait_for_action found stuck: release_cluster
        # cancels them without watching them again
        self.stuck = set()

    def get_headers(self, accept_type=None, send_type=None,
                    microversion=MICROVERSION):
        headers = super().get_headers(accept_type, send_type)
        headers['OpenStack-API-Version'] = 'clustering %s' % microversion
        return headers

    def _json(self, method, url, body=None, expected=(200,),
              microversion=MICROVERSION):
        data = None if body is None else json.dumps(body)
        resp, raw = self.request(method, url, headers=self.get_headers(
            microversion=microversion), body=data)
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

    def show_policy_type(self, type_name):
        """GET /v1/policy-types/{name-version} at 1.5: name, schema and
        support_status."""
        _, body = self._json('GET', 'v1/policy-types/%s' % type_name,
                             microversion=TYPE_STATUS_MICROVERSION)
        return body['policy_type']

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

    def delete_cluster(self, cluster_id, force=False):
        """Delete; ``force`` (1.8) also when the cluster's status would
        refuse it (an action that died left it UPDATING)."""
        if force:
            resp, body = self._while_locked(
                'DELETE', 'v1/clusters/%s?force=true' % cluster_id, None,
                (202,), FORCE_DELETE_MICROVERSION)
        else:
            resp, body = self._while_locked(
                'DELETE', 'v1/clusters/%s' % cluster_id, None, (202,))
        return self._action_of(resp, body)

    def cluster_action(self, cluster_id, action, params):
        resp, body = self._while_locked(
            'POST', 'v1/clusters/%s/actions' % cluster_id,
            {action: params}, (202,))
        return self._action_of(resp, body)

    def _while_locked(self, method, url, body, expected,
                      microversion=MICROVERSION):
        """Senlin refuses (409) an action on a cluster another action
        still holds, e.g. a failed scale-out removing its node: retry
        until the lock goes or build_timeout passes."""
        deadline = time.monotonic() + self.build_timeout
        intervals = self._poll_intervals()
        while True:
            try:
                return self._json(method, url, body, expected, microversion)
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

    def force_cancel_action(self, action_id):
        """Cancel an action and the actions it waits for, and release its
        lock, whatever its state (senlin's force cancel, 1.12)."""
        self._json('PATCH', 'v1/actions/%s?force=true' % action_id,
                   {'action': {'status': 'CANCELLED'}}, (202,),
                   ACTION_UPDATE_MICROVERSION)

    def wait_for_action(self, action_id, what=''):
        """Poll until the action ends; return it (any end state).
        ActionStuck once it has waited STUCK_SECONDS on nothing
        unfinished; ActionTimeout after build_timeout."""
        deadline = time.monotonic() + self.build_timeout
        intervals = self._poll_intervals()
        idle_since = None
        while True:
            action = self.show_action(action_id)
            if action['status'] in END_STATES:
                return action
            now = time.monotonic()
            if self._waits_on_nothing(action):
                idle_since = idle_since or now
                if now - idle_since >= STUCK_SECONDS:
                    self.stuck.add(action_id)
                    raise ActionStuck(action, (
                        '%s %s still WAITING %d s after every action it '
                        'waits for ended (%s): senlin does not resume it' % (
                            what or action.get('action'), action_id,
                            now - idle_since, ', '.join(
                                action.get('depends_on') or ()) or 'none')))
            else:
                idle_since = None
            if now > deadline:
                raise ActionTimeout(detail='%s %s still %s after %s s' % (
                    what or action.get('action'), action_id,
                    action['status'], self.build_timeout))
            time.sleep(next(intervals))

    def _waits_on_nothing(self, action):
        if action['status'] != 'WAITING':
            return False
        return all(self.show_action(other)['status'] in END_STATES
                   for other in action.get('depends_on') or ())

    def release_cluster(self, cluster_id):
        """Let every unfinished action on the cluster end; force-cancel
        those stuck. Returns what was force-cancelled, as
        ['ACTION id (why)'], for the caller to say."""
        cancelled = []
        for action in self.list_actions(cluster_id):
            if action['status'] in END_STATES:
                continue
            why = 'found stuck before'
            if action['id'] not in self.stuck:
                try:
                    self.wait_for_action(action['id'], action['action'])
                    continue
                except ActionStuck as e:
                    why = e.detail
            self.force_cancel_action(action['id'])
            cancelled.append('%s %s (%s)' % (action['action'],
                                             action['id'], why))
        return cancelled

    def delete_cluster_and_wait(self, cluster_id):
        """Release the cluster (release_cluster), detach its policies and
        delete it, forcing the delete when senlin's status check refuses
        it; return (the CLUSTER_DELETE action as it ended, what was
        force-cancelled)."""
        cancelled = self.release_cluster(cluster_id)
        for binding in self.list_bindings(cluster_id):
            self.wait_for_action(self.detach_policy(
                cluster_id, binding['policy_id']), 'POLICY_DETACH')
        try:
            action_id = self.delete_cluster(cluster_id)
        except lib_exc.Conflict:
            # e.g. "in status UPDATING": an action that died set it
            action_id = self.delete_cluster(cluster_id, force=True)
        return self.wait_for_action(action_id, 'CLUSTER_DELETE'), cancelled

    def _poll_intervals(self):
        return waiters.poll_intervals(cap=self.build_interval)
