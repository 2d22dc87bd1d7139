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

"""Proof that `conformance packaged` fails cleanly and leaves nothing.

    python -m conformance_tests.tools.packaged_proof [--workdir W]
        [--port-base N]

As root, three cases, each through the real command line:

1. a port the cloud needs is taken: `packaged up` exits 2 with one line
   naming the port, before anything is mounted or started;
2. the Debian archive is unreachable (a mirror on a closed loopback
   port, an empty cache): exit 2 with one line naming the build log,
   nothing mounted;
3. `packaged run` killed with SIGKILL once its databases, queue and
   keystone run (no `finally` of it runs), then `packaged down`: no
   process left in the cloud's root and nothing mounted under it.

Exits 0 only when all three hold.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from conformance_tests.common import ui
from conformance_tests.packaged import chroot
from conformance_tests.packaged import layout
from conformance_tests.packaged import processes

#: Daemons running before the kill: MariaDB, RabbitMQ and keystone.
KILL_AFTER = ('mariadb', 'rabbitmq', 'keystone')
#: The build, if the cache has no root, plus the first daemons.
KILL_WITHIN = 900


def conformance():
    return os.path.join(os.path.dirname(sys.executable), 'conformance')


def _command(argv, env=None):
    done = subprocess.run([conformance()] + argv, capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL)
    return done.returncode, done.stderr.strip().splitlines()


def _one_line(code, lines, must_say):
    problems = []
    errors = [line for line in lines if line.startswith('conformance: ')]
    if code != 2:
        problems.append('exit %d, not 2' % code)
    if len(errors) != 1 or must_say not in errors[0]:
        problems.append('not one line saying %r: %r' % (must_say, lines[-3:]))
    if any('Traceback' in line for line in lines):
        problems.append('a traceback')
    return problems


def port_taken(workdir, port_base):
    statedir = os.path.join(workdir, 'packaged')
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(('127.0.0.1', port_base + layout.PORTS['keystone']))
        s.listen(1)
        code, lines = _command(['packaged', 'up', '--workdir', workdir,
                                '--port-base', str(port_base)])
    problems = _one_line(code, lines, 'port %d (keystone) is taken' % (
        port_base + layout.PORTS['keystone']))
    return problems + _left(os.path.join(statedir, 'root'))


def archive_unreachable(workdir, port_base):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CONFORMANCE_CACHE=cache,
                   CONFORMANCE_DEBIAN_MIRROR='http://127.0.0.1:9/debian')
        code, lines = _command(['packaged', 'up', '--workdir', workdir,
                                '--port-base', str(port_base)], env)
        problems = _one_line(code, lines, 'build.log')
        problems += _left(os.path.join(cache, 'packaged'))
    return problems + _left(os.path.join(workdir, 'packaged', 'root'))


def killed_run(workdir, port_base):
    statedir = os.path.join(workdir, 'packaged')
    root = os.path.join(statedir, 'root')
    run = subprocess.Popen(
        [conformance(), 'packaged', 'run', '--workdir', workdir,
         '--port-base', str(port_base)], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + KILL_WITHIN
    try:
        while time.monotonic() < deadline and run.poll() is None:
            daemons = processes.recorded(statedir)
            if all(name in daemons for name in KILL_AFTER):
                break
            time.sleep(1)
        else:
            return ['the run never started %s (exit %s)' % (
                ', '.join(KILL_AFTER), run.poll())]
        running = len(processes.in_root(root))
        run.send_signal(signal.SIGKILL)
        run.wait()
        ui.say('packaged proof: killed the run with %d processes in its '
               'root and %d mounts' % (running, len(chroot.mounts_under(
                   root))))
    finally:
        if run.poll() is None:
            run.kill()
    code, lines = _command(['packaged', 'down', '--workdir', workdir,
                            '--port-base', str(port_base)])
    problems = [] if code == 0 else ['`packaged down` exit %d: %s' % (
        code, lines[-1:])]
    return problems + _left(root)


def _left(root):
    problems = []
    pids = processes.in_root(root) if os.path.isdir(root) else []
    if pids:
        problems.append('processes left in %s: %s' % (root, pids))
    mounts = chroot.mounts_under(root)
    if mounts:
        problems.append('mounts left: %s' % ', '.join(mounts))
    return problems


CASES = (('a port taken', port_taken),
         ('the archive unreachable', archive_unreachable),
         ('a run killed, then down', killed_run))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.packaged_proof',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--workdir', default=os.path.join(
        '.conformance', 'packaged-proof'))
    parser.add_argument('--port-base', type=int, default=19600)
    args = parser.parse_args(argv)
    try:
        chroot.require_root()
    except chroot.PackagedError as e:
        ui.fail(str(e))
        return 2
    workdir = os.path.abspath(args.workdir)
    problems = []
    for number, (name, case) in enumerate(CASES, 1):
        ui.say('packaged proof %d of %d: %s' % (number, len(CASES), name))
        found = case(workdir, args.port_base)
        problems += ['%s: %s' % (name, p) for p in found]
        ui.say('packaged proof %d of %d: %s' % (
            number, len(CASES), 'holds' if not found else 'FAILS'))
    for problem in problems:
        ui.fail(problem)
    ui.say('packaged proof: %s' % ('PASS' if not problems else
                                   'FAIL (%d)' % len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
