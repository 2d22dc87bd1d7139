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

"""What nova records of the work on a server: its instance actions
(GET /servers/{id}/os-instance-actions) and their events.

Nova writes an event's finish after the state it changes: a server is
ACTIVE, its record says so, and only then does its compute write that the
build is over. A test that disturbs the cloud (takes a cell's database
away) waits for that write, or it meets a build that is not over.
"""

# The create action's event on the server's host: the build.
BUILD_EVENT = 'compute__do_build_and_run_instance'

# From 2.51 a server's own user sees its actions' events (without their
# tracebacks, which stay admin-only).
EVENTS_MICROVERSION = '2.51'


def event(events, name):
    """The event ``name`` (compute_terminate_instance, BUILD_EVENT ...) of
    an instance action's ``events`` (GET
    /servers/{id}/os-instance-actions/{request_id}): its finish_time is
    None while it runs and its result is 'Success' or 'Error' once it has
    finished. None if there is no such event."""
    for found in events or ():
        if found.get('event') == name:
            return found
    return None


def build_event(raw, server_id, microversion):
    """The BUILD_EVENT of the server's create action, read with a raw
    compute client (conformance_compute_v2.RawComputeClient: a refused
    read is an AssertionError naming the call and the answer) at
    ``microversion`` (EVENTS_MICROVERSION or later), or None while nova
    has recorded no create action or no build on a host."""
    actions = raw.get('/servers/%s/os-instance-actions' % server_id,
                      microversion)['instanceActions']
    creates = [a for a in actions if a['action'] == 'create']
    if not creates:
        return None
    action = raw.get('/servers/%s/os-instance-actions/%s' % (
        server_id, creates[0]['request_id']), microversion)['instanceAction']
    return event(action.get('events'), BUILD_EVENT)
