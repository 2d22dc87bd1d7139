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

"""One interface for the faults the disruptive tests cause.

Two back ends:
- the embedded cloud's control endpoint ([conformance] fault_control_url
  and fault_control_token), which takes a cell's database away from nova;
- shell commands ([conformance] fault_cell_down_command and
  fault_cell_up_command, with {cell} replaced by the cell name), which is
  what a DevStack playbook or an operator provides.

With neither, or without [conformance] allow_disruption, disruptive tests
skip and say what to set.

``cell_down`` returns only once the back end confirms the cell's database
is unreachable (the control endpoint reports the cell down; a down
command's contract is to exit 0 only then, as playbooks/files/
cell-db-fault.sh does) and raises FaultError otherwise. That confirmation
is the signal the outage tests start from: never nova's own views, which
are what they check. Disruptive test classes are Tempest's @serial
classes: no other test class runs while they do (scenario/base.py says
why).
"""

import json
import shlex
import subprocess
import urllib.error
import urllib.request

from conformance_tests.common import tls


class FaultError(Exception):
    pass


def skip_reason(conf):
    c = conf.conformance
    if not c.allow_disruption:
        return ('disruptive test (takes a cell down and brings it back): '
                'set [conformance] allow_disruption = true to run it')
    if not backend(conf):
        return ('no fault back end: set [conformance] fault_control_url '
                '(embedded cloud) or fault_cell_down_command and '
                'fault_cell_up_command (DevStack playbook, operator)')
    if not (c.cell_down_name and c.cell_down_zone):
        return ('set [conformance] cell_down_name and cell_down_zone (a '
                'zone whose hosts are all in that cell)')
    return None


# What only the embedded cloud's control endpoint can show; report/
# applicability.py reads "needs a cloud whose data the suite controls" as
# not-applicable. An operator's mappings are unmigrated before an
# upgrade's online data migration, never on the suite's request, and a
# deployment's notifications go to its message bus.
_NEEDS_CONTROL = ('needs a cloud whose data the suite controls: %s; set '
                  '[conformance] fault_control_url (the embedded cloud) to '
                  'run it')
USER_ID_MIGRATION_CANNOT_SHOW = _NEEDS_CONTROL % (
    'an instance mapping left without user_id, as before nova-manage db '
    'online_data_migrations runs populate_user_id')
NOTIFICATIONS_CANNOT_SHOW = _NEEDS_CONTROL % (
    'the versioned notifications nova sends, which only the embedded '
    'cloud hands to the suite')


def control_skip_reason(conf, cannot_show):
    """``cannot_show`` (one of the messages above) unless the embedded
    cloud's control endpoint is configured; else None."""
    return None if conf.conformance.fault_control_url else cannot_show


def take_cell_down(test, conf):
    """Take the configured cell down for the rest of ``test``.

    The test's class must be Tempest's @serial (see scenario/base.py),
    so no other test runs during the outage. The cell is brought back
    by the test's cleanups, also when it fails. Returns
    (back end, cell name).
    """
    cell = conf.conformance.cell_down_name
    fault = backend(conf)
    test.addCleanup(fault.cell_up, cell)
    fault.cell_down(cell)
    return fault, cell


def backend(conf):
    c = conf.conformance
    if c.fault_control_url:
        return ControlEndpoint(c.fault_control_url, c.fault_control_token,
                               conf.service_clients.http_timeout,
                               tls.client_context(*tls.options(conf)))
    if c.fault_cell_down_command and c.fault_cell_up_command:
        return ShellCommands(c.fault_cell_down_command,
                             c.fault_cell_up_command)
    return None


class ControlEndpoint(object):
    def __init__(self, url, token, timeout, tls_context=None):
        self.url = url.rstrip('/')
        self.token = token
        # Tempest's [service-clients] http_timeout, as for the cloud's
        # own APIs (the caller passes it)
        self.timeout = timeout
        # an https endpoint is trusted as Tempest's clients trust the
        # cloud (common/tls.py)
        self.tls_context = tls_context

    def _post(self, path):
        return self._request('POST', path)

    def _request(self, method, path):
        req = urllib.request.Request(
            self.url + path, data=b'' if method == 'POST' else None,
            method=method)
        req.add_header('X-Conformance-Control-Token', self.token)
        try:
            with urllib.request.urlopen(
                    req, timeout=self.timeout,
                    context=self.tls_context) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raise FaultError('control endpoint: %s %s -> %s %s' % (
                method, path, e.code, e.read()[:200]))
        except OSError as e:
            raise FaultError('control endpoint %s unreachable: %s' % (
                self.url, e))

    def _confirm(self, cell, state, answer):
        shown = (answer or {}).get('cells', {}).get(cell)
        if shown != state:
            raise FaultError('control endpoint: cell %s reported %r after '
                             'asking for %s' % (cell, shown, state))

    def cell_down(self, cell):
        self._confirm(cell, 'down', self._post('/cells/%s/down' % cell))

    def cell_up(self, cell):
        self._confirm(cell, 'up', self._post('/cells/%s/up' % cell))

    def unmigrate_user_id(self, server_id):
        """Leave the server's instance mapping without user_id."""
        answer = self._post('/instance-mappings/%s/unmigrate' % server_id)
        if (answer or {}).get('instance_uuid') != server_id:
            raise FaultError('control endpoint: unmigrating %s answered %r'
                             % (server_id, answer))
        return answer

    def populate_user_id(self):
        """Run nova's populate_user_id online data migration; return
        {'found': n, 'done': m}."""
        return self._post('/online-data-migrations/populate_user_id')

    def notifications(self, event_type):
        """The versioned notifications of ``event_type`` nova sent
        (server_group.* only), oldest first: [{event_type, priority,
        payload}]."""
        answer = self._request('GET', '/notifications/%s' % event_type)
        found = (answer or {}).get('notifications')
        if not isinstance(found, list):
            raise FaultError('control endpoint: GET /notifications/%s '
                             'answered %r' % (event_type, answer))
        return found


class ShellCommands(object):
    def __init__(self, down, up):
        self.down, self.up = down, up

    def _run(self, template, cell):
        command = template.format(cell=shlex.quote(cell))
        done = subprocess.run(command, shell=True, capture_output=True,
                              text=True, timeout=600)
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ['no output'])[-1]
            raise FaultError('fault command for cell %s exited %d: %s' % (
                cell, done.returncode, last[-300:]))

    def cell_down(self, cell):
        self._run(self.down, cell)

    def cell_up(self, cell):
        self._run(self.up, cell)
