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

"""The packaged cloud's daemons: started inside its root, stopped by pid.

Each daemon is ``chroot ROOT argv`` in a session of its own, its output
in ``/var/log/conformance/<name>.out`` inside the root; its pid is
recorded in the cloud's state file before anything waits on it, so a
`down` after a killed `up` or `run` finds it. `stop_all` stops the
recorded pids (SIGTERM to the session, SIGKILL after a grace), then every
process whose root is the cloud's root (what a daemon forked: uwsgi's
workers, RabbitMQ's Erlang VM and epmd, the fault script's forwarder):
nothing keeps running in a root that is about to be unmounted.
"""

import json
import os
import signal
import socket
import subprocess
import time

from conformance_tests.packaged import chroot

STATE = 'daemons.json'
GRACE = 15


def _state_path(statedir):
    return os.path.join(statedir, STATE)


def recorded(statedir):
    try:
        with open(_state_path(statedir)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _record(statedir, name, pid, log):
    daemons = recorded(statedir)
    daemons[name] = {'pid': pid, 'log': log}
    with open(_state_path(statedir), 'w') as f:
        json.dump(daemons, f, indent=1)


def log_path(name):
    return '/var/log/conformance/%s.out' % name


def start(root, statedir, name, argv, env=None):
    """Start ``argv`` in the root as daemon ``name``; returns its pid."""
    inside = log_path(name)
    host_log = os.path.join(root, inside.lstrip('/'))
    os.makedirs(os.path.dirname(host_log), exist_ok=True)
    with open(host_log, 'ab') as out:
        proc = subprocess.Popen(
            chroot.command(root, argv), stdin=subprocess.DEVNULL,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(chroot.ROOT_ENV, **(env or {})))
    _record(statedir, name, proc.pid, inside)
    return proc.pid


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie of ours counts as gone
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


def in_root(root):
    """Pids of every process whose root directory is ``root``."""
    root = os.path.realpath(root)
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            if os.readlink('/proc/%s/root' % entry) == root:
                found.append(int(entry))
        except OSError:
            continue
    return found


def _signal(pid, sig):
    for target in (lambda: os.killpg(pid, sig), lambda: os.kill(pid, sig)):
        try:
            target()
            return
        except (ProcessLookupError, PermissionError):
            continue


def _wait_gone(pids, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = [p for p in pids if alive(p)]
        if not pids:
            return []
        time.sleep(0.2)
    return [p for p in pids if alive(p)]


def stop_all(root, statedir):
    """Stop every daemon and whatever else runs in the root. Returns the
    pids that would not die (empty when all went)."""
    daemons = recorded(statedir)
    pids = [d['pid'] for d in daemons.values()
            if alive(d['pid']) and d['pid'] in in_root(root)]
    for pid in pids:
        _signal(pid, signal.SIGTERM)
    left = _wait_gone(pids, GRACE)
    for pid in left + in_root(root):
        _signal(pid, signal.SIGKILL)
    left = _wait_gone(in_root(root), GRACE)
    if os.path.exists(_state_path(statedir)):
        os.unlink(_state_path(statedir))
    return left


def stop(root, statedir, name):
    """Stop one daemon (for a restart); forgets it."""
    daemons = recorded(statedir)
    info = daemons.pop(name, None)
    if info and alive(info['pid']):
        _signal(info['pid'], signal.SIGTERM)
        if _wait_gone([info['pid']], GRACE):
            _signal(info['pid'], signal.SIGKILL)
            _wait_gone([info['pid']], GRACE)
    with open(_state_path(statedir), 'w') as f:
        json.dump(daemons, f, indent=1)


def port_open(port, host='127.0.0.1'):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def port_taken(port):
    return port_open(port)


def wait_for(what, check, seconds, pid=None, log=None):
    """Poll ``check`` until true; a daemon that died or a timeout is a
    one-line error naming its log (a path inside the root)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        if pid is not None and not alive(pid):
            raise chroot.PackagedError('%s exited before it was ready; see %s'
                                       % (what, log))
        time.sleep(0.5)
    raise chroot.PackagedError('%s not ready after %d s; see %s' % (
        what, seconds, log))
