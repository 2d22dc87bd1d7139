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

"""Waiters: poll until something is true, or fail naming what and who.

Small module functions in the style of Tempest's and octavia-tempest-
plugin's waiters. Each raises ``tempest.lib.exceptions.TimeoutException``
naming the calling test and what it waited for; none gives up silently.

Why not Tempest's own (tempest.common.waiters), which the suite would
rather use:
- they sleep ``build_interval`` between polls, a whole number of seconds
  ([compute] build_interval is an IntOpt). On a cloud whose servers go
  ACTIVE in about a second, that wait is half of every boot. Ours
  start at [conformance] poll_interval and back off (times BACKOFF, up to
  build_interval), so a real cloud is soon polled no more often than
  Tempest polls it;
- ``wait_for_server_status`` waits for one status and raises on ERROR;
  the scheduling rules expect some servers to end in ERROR, with a
  fault the test reads, so we wait for whichever comes first;
- ``test_utils.call_until_true`` polls at a fixed interval and returns
  False on timeout, with no message; ``wait_until`` builds on the same
  idea with back-off and a message.
"""

import time

from tempest import config
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc

from conformance_tests.services.reservation import leases

CONF = config.CONF
# Each wait is this much longer than the one before (until the cap):
# after t seconds the next poll comes at most 0.5 t later, so a server
# that settles after t is seen by about 1.5 t at worst.
BACKOFF = 1.5
SETTLED = ('ACTIVE', 'ERROR')
# Nova records an ERROR server's vm_state and its fault in two writes (a
# scheduling failure: the state, then the fault): a read in between sees
# ERROR with no fault, more often on a loaded cloud. An ERROR server is
# settled once its fault is there, or FAULT_GRACE seconds after ERROR was
# first seen (a cloud that records none is then judged as it is).
FAULT_GRACE = 30


def poll_intervals(first=None, cap=None):
    """Seconds to sleep between polls: first, first*BACKOFF, ... <= cap.

    ``first`` defaults to [conformance] poll_interval and ``cap`` to
    [compute] build_interval (never below ``first``).
    """
    interval = CONF.conformance.poll_interval if first is None else first
    cap = max(interval, CONF.compute.build_interval if cap is None else cap)
    while True:
        yield interval
        interval = min(cap, interval * BACKOFF)


def _timeout(what, timeout, last_seen):
    caller = test_utils.find_test_caller()
    return lib_exc.TimeoutException(
        '(%s) timed out after %s s waiting for %s; last seen: %s' % (
            caller or 'no test found', timeout, what, last_seen))


def wait_until(what, check, timeout=None):
    """Call ``check()`` until it returns a true value; return that value.

    ``what`` says what is awaited ("cell cell1 to look down"); it goes
    into the TimeoutException after [compute] build_timeout (or
    ``timeout``) seconds.
    """
    timeout = CONF.compute.build_timeout if timeout is None else timeout
    deadline = time.monotonic() + timeout
    intervals = poll_intervals()
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise _timeout(what, timeout, repr(result))
        time.sleep(next(intervals))


def observe(check, timeout=None):
    """Call ``check()`` until it returns a true value or ``timeout`` (default
    [compute] build_timeout) runs out; return its last value either way.

    For behaviour a test asserts once an independent signal says it is
    due (a fault back end confirmed a cell's database is unreachable):
    the caller fails an assertion that names the rule when the value is
    still false, so a cloud that never does it is judged, not timed out.
    """
    timeout = CONF.compute.build_timeout if timeout is None else timeout
    deadline = time.monotonic() + timeout
    intervals = poll_intervals()
    while True:
        result = check()
        if result or time.monotonic() >= deadline:
            return result
        time.sleep(next(intervals))


def gone(show, *args):
    """True when ``show(*args)`` answers 404 (a check for wait_until)."""
    try:
        show(*args)
    except lib_exc.NotFound:
        return True
    return False


def wait_for_lease_settled(leases_client, lease_id):
    """Wait until the lease is gone or has left blazar's transitional
    states (STARTING, TERMINATING ...).

    Blazar refuses to delete a lease in one of them: a run that failed,
    timed out or was killed while blazar was still starting a lease (a
    slow eviction on a loaded cloud) waits for it before the delete, or
    the lease, its aggregate and its host's place in the freepool stay
    behind. Bounded by [compute] build_timeout."""
    def settled():
        try:
            lease = leases_client.show_lease(lease_id)['lease']
        except lib_exc.NotFound:
            return True
        return lease['status'] in leases.STABLE

    wait_until('lease %s to leave its transitional state' % lease_id,
               settled)


def wait_for_server_settled(client, server_id):
    """Wait until the server is ACTIVE or ERROR (with its fault, see
    FAULT_GRACE); return its record.

    Which of the two is the test's to judge (an overflow server must
    end in ERROR). Times out after the client's build_timeout.
    """
    deadline = time.monotonic() + client.build_timeout
    intervals = poll_intervals()
    error_since = None
    while True:
        server = client.show_server(server_id)['server']
        if server['status'] == 'ERROR' and not server.get('fault'):
            error_since = error_since or time.monotonic()
            if time.monotonic() - error_since >= FAULT_GRACE:
                return server
        elif server['status'] in SETTLED:
            return server
        if time.monotonic() >= deadline:
            raise _timeout('server %s to go ACTIVE or ERROR' % server_id,
                           client.build_timeout, 'status %s, task state %s'
                           % (server['status'],
                              server.get('OS-EXT-STS:task_state')))
        time.sleep(next(intervals))


def wait_until_gone(servers):
    """Wait until showing each server, a (client, server id) pair, with
    its client gives 404.

    One deadline (the longest build_timeout of the clients) for all of
    them: servers whose DELETE was sent together are deleted side by
    side, so waiting for the last is about as long as waiting for one.
    On timeout, names every server still there with its status and task
    state.
    """
    if not servers:
        return
    timeout = max(client.build_timeout for client, _ in servers)
    deadline = time.monotonic() + timeout
    intervals = poll_intervals()
    left = {server_id: (client, None) for client, server_id in servers}
    while True:
        for server_id, (client, _) in list(left.items()):
            try:
                left[server_id] = (
                    client, client.show_server(server_id)['server'])
            except lib_exc.NotFound:
                del left[server_id]
        if not left:
            return
        if time.monotonic() >= deadline:
            raise _timeout(
                '%s to be deleted' % ', '.join(
                    'server %s' % server_id for server_id in left),
                timeout, '; '.join(
                    '%s: status %s, task state %s' % (
                        server_id, server['status'],
                        server.get('OS-EXT-STS:task_state'))
                    for server_id, (_, server) in left.items()))
        time.sleep(next(intervals))


def delete_server(client, server_id):
    """Delete the server (gone already is fine) and wait until it is."""
    delete_servers(client, [server_id])


def delete_servers(client, server_ids):
    """Delete the servers, then wait until all are gone (see
    remove_servers)."""
    remove_servers([(client, server_id) for server_id in server_ids])


def let_builds_finish(servers):
    """Wait until no server of the (client, server id) pairs is BUILD
    (or it is gone), one deadline for all (the longest build_timeout);
    never raises: what is still building is deleted all the same.

    A DELETE that reaches nova while the compute is still building the
    server waits for the build's lock on the instance, and on a loaded
    cloud such a server was seen to stay BUILD (task state networking)
    past build_timeout after its DELETE, left behind. A test that fails
    right after its boots (an assertion on the first server) would hand
    every other one to the removal mid-build; letting them finish makes
    the removal the ordinary delete of a settled server."""
    if not servers:
        return
    deadline = time.monotonic() + max(c.build_timeout for c, _ in servers)
    intervals = poll_intervals()
    building = list(servers)
    while building:
        still = []
        for client, server_id in building:
            try:
                server = client.show_server(server_id)['server']
            except lib_exc.NotFound:
                continue
            except Exception:  # the DELETE and its wait will tell
                continue
            if server['status'] == 'BUILD':
                still.append((client, server_id))
        building = still
        if not building or time.monotonic() >= deadline:
            return
        time.sleep(next(intervals))


def remove_servers(servers):
    """Let every build finish (let_builds_finish), send every DELETE,
    each (client, server id) pair with its client, in the order given
    (gone already is fine), then wait until all are gone. A DELETE that
    fails does not stop the others; the first such error is raised once
    the rest are gone."""
    let_builds_finish(servers)
    sent, failure = [], None
    for client, server_id in servers:
        try:
            test_utils.call_and_ignore_notfound_exc(
                client.delete_server, server_id)
            sent.append((client, server_id))
        except Exception as e:  # raised after the others are gone
            failure = failure or e
    wait_until_gone(sent)
    if failure is not None:
        raise failure
