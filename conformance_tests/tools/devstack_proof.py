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

"""Proof that a killed `conformance devstack run` leaves nothing after
`conformance devstack down`.

    python -m conformance_tests.tools.devstack_proof [--job J]
        [--workdir W] [--devstack-src DIR]

As root, through the real command line: `devstack run` is killed with
SIGKILL while DevStack's stack.sh runs in the node (so no `finally` of
it runs: the node, its proxy and ansible-playbook are left as a gate's
killed executor leaves them), then `devstack down` runs. It holds when
`down` exits 0 and nothing of the node is left: no process in the node's
pid namespace or under its root, neither nspawn nor the proxy, no mount
under the workdir, no state file.

Exits 0 only when that holds.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

from conformance_tests.common import ui
from conformance_tests.devstack import deploy
from conformance_tests.packaged import chroot
from conformance_tests.packaged import processes
from conformance_tests.tools.packaged_proof import conformance

#: The node from the cache (or a root built by debootstrap), the job's
#: pre-run playbooks, then stack.sh's first steps.
KILL_WITHIN = 1200


def _namespace(pid):
    try:
        return os.readlink('/proc/%d/ns/pid' % pid)
    except OSError:
        return None


def _hold_namespace(pid):
    """(namespace, fd): ``pid``'s pid namespace, held open by the fd.

    Why: the kernel reuses a namespace's number once nothing holds it,
    so after `down` another container booted on the machine (a gate's
    other job) may get the killed node's number, and its processes would
    be counted as left in the node. An open fd keeps the number this
    node's until the proof has looked."""
    try:
        fd = os.open('/proc/%d/ns/pid' % pid, os.O_RDONLY)
    except OSError:
        return None, None
    return 'pid:[%d]' % os.fstat(fd).st_ino, fd


def in_namespace(namespace):
    """Pids of every process in the pid namespace ``namespace``."""
    found = []
    for entry in os.listdir('/proc'):
        if entry.isdigit() and _namespace(int(entry)) == namespace:
            found.append(int(entry))
    return found


def _runs_stack_sh(pids):
    for pid in pids:
        try:
            with open('/proc/%d/cmdline' % pid, 'rb') as f:
                words = f.read().split(b'\0')
        except OSError:
            continue
        if any(word.endswith(b'stack.sh') for word in words):
            return True
    return False


def killed_run(job, workdir, devstack_src):
    """Problems left after a run killed during stack.sh, then down."""
    argv = [conformance(), 'devstack', 'run', '--job', job,
            '--workdir', workdir]
    if devstack_src:
        argv += ['--devstack-src', devstack_src]
    run = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    namespace, held, state = None, None, {}
    deadline = time.monotonic() + KILL_WITHIN
    try:
        while time.monotonic() < deadline and run.poll() is None:
            state = deploy.read_state(workdir) or {}
            if held is None and state.get('leader'):
                namespace, held = _hold_namespace(state['leader'])
            if namespace and _runs_stack_sh(in_namespace(namespace)):
                break
            time.sleep(1)
        else:
            return ['the run never reached stack.sh in %d s (exit %s; its '
                    'logs in %s)' % (KILL_WITHIN, run.poll(),
                                     os.path.join(workdir, 'logs'))]
        running = len(in_namespace(namespace))
        run.send_signal(signal.SIGKILL)
        run.wait()
        ui.say('devstack proof: killed the run during stack.sh, with %d '
               'processes in the node and %d mounts under its workdir' % (
                   running, len(chroot.mounts_under(workdir))))
        done = subprocess.run([conformance(), 'devstack', 'down',
                               '--workdir', workdir], capture_output=True,
                              text=True, stdin=subprocess.DEVNULL)
        problems = [] if done.returncode == 0 else [
            '`devstack down` exit %d: %s' % (
                done.returncode, done.stderr.strip().splitlines()[-1:])]
        return problems + left(workdir, namespace, state)
    finally:
        if run.poll() is None:
            run.kill()
        if held is not None:
            os.close(held)


def left(workdir, namespace, state):
    """What of the node is still there: processes, mounts, state."""
    problems = []
    pids = in_namespace(namespace) if namespace else []
    root = os.path.join(workdir, 'node', 'root')
    pids += [p for p in (processes.in_root(root) if os.path.isdir(root)
                         else []) if p not in pids]
    if pids:
        problems.append('processes left in the node: %s' % pids)
    for key in ('nspawn', 'proxy'):
        if state.get(key) and processes.alive(state[key]):
            problems.append('the %s (pid %d) still runs' % (key, state[key]))
    mounts = chroot.mounts_under(workdir)
    if mounts:
        problems.append('mounts left: %s' % ', '.join(mounts))
    if deploy.read_state(workdir):
        problems.append('a state file is left: %s' % deploy.state_path(
            workdir))
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.devstack_proof',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--job', default='conformance-placement')
    parser.add_argument('--workdir', default=os.path.join(
        '.conformance', 'devstack-proof'))
    parser.add_argument('--devstack-src', default=None)
    args = parser.parse_args(argv)
    try:
        chroot.require_root()
    except chroot.PackagedError as e:
        ui.fail(str(e))
        return 2
    workdir = os.path.abspath(args.workdir)
    if deploy.read_state(workdir):
        ui.fail('a node is already up in %s: run `conformance devstack '
                'down --workdir %s` first' % (workdir, workdir))
        return 2
    ui.say('devstack proof: %s killed during stack.sh, then down' %
           args.job)
    started = time.monotonic()
    problems = killed_run(args.job, workdir, args.devstack_src)
    for problem in problems:
        ui.fail(problem)
    ui.say('devstack proof: %s in %.0f s' % (
        'PASS' if not problems else 'FAIL (%d)' % len(problems),
        time.monotonic() - started))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
