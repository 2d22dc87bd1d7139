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

"""The DevStack node: a Debian root booted by systemd-nspawn, systemd as
its PID 1, as a gate's node is a machine with systemd.

DevStack starts its services as systemd units and needs a real init, so
a chroot (the packaged cloud's way) does not do. The root is built once
by debootstrap with only what a nodepool image has before DevStack
(systemd, sudo, git, Python, Ansible for the job's playbooks) and kept in
the cache with a marker; every `up` boots a fresh overlay of it, so
`down` throws DevStack away with the upper directory.

The node has a private network: only loopback and one veth address,
the node's "private_ipv4" as nodepool gives it. No port of it meets
another cloud on the machine; apt and pip reach their registries through
proxy.py, whose socket lives in the node's network namespace.

Bookworm is the one Debian every DevStack branch of the matrix supports
(SUPPORTED_DISTROS of unmaintained/2024.1 up to master).
"""

import json
import os
import shutil
import subprocess
import time
import zlib

from conformance_tests.packaged import chroot

SUITE = 'bookworm'
#: What a nodepool node has before the job: DevStack installs the rest
#: (files/debs) itself. Ansible (with the collections Zuul's executor has,
#: ansible.posix's synchronize among them) runs the job's playbooks over
#: ssh to the node's own sshd, as Zuul's executor reaches a node.
PACKAGES = (
    'systemd', 'systemd-sysv', 'dbus', 'sudo', 'git', 'python3',
    'python3-venv', 'ansible', 'rsync', 'iproute2', 'curl',
    'ca-certificates', 'lsb-release', 'procps', 'psmisc', 'iputils-ping',
    'gnupg', 'openssh-client', 'openssh-server', 'libpam-systemd',
)
MARKER = 'conformance-devstack.json'
#: The node's address on its own veth pair (nodepool's private_ipv4).
NODE_IP = '10.209.0.10'
NODE_IFACE = 'nodepool0'
HOSTNAME = 'controller'
#: Kernel knobs of the machine the node must not see as its own: DevStack's
#: stable branches write /sys/kernel/mm/ksm/run whenever it exists (to turn
#: KSM on or off, ENABLE_KSM), and a container writing it would stop
#: stack.sh (read-only) or retune the machine. An empty tmpfs over it is a
#: kernel without KSM, which DevStack skips. Mounted once the node runs:
#: nspawn mounts its /sys after the mounts --tmpfs asks for.
HIDDEN_KERNEL_DIRS = ('/sys/kernel/mm/ksm',)
BOOT_SECONDS = 120
NODE_ENV = {
    'PATH': '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    'LANG': 'C.UTF-8', 'HOME': '/root', 'DEBIAN_FRONTEND': 'noninteractive',
}


class ContainerError(chroot.PackagedError):
    """One line: what failed and where its log is."""


def cache_dir():
    return os.path.join(chroot.cache_base(), 'devstack', SUITE)


def sdist_cache():
    """The services' sdists, downloaded once for every node."""
    return os.path.join(chroot.cache_base(), 'devstack', 'sdists')


def built_root():
    return os.path.join(cache_dir(), 'root')


def _marker():
    return {'suite': SUITE, 'packages': sorted(PACKAGES)}


def is_built():
    try:
        with open(os.path.join(cache_dir(), MARKER)) as f:
            return json.load(f) == _marker()
    except (OSError, ValueError):
        return False


def require_host(say=None, log=None):
    """Root and systemd-nspawn, or one line saying what to install. As
    root on Debian, a missing systemd-container is installed with
    apt-get first (as the packaged cloud installs debootstrap), said."""
    if os.geteuid() != 0:
        raise ContainerError(
            'the DevStack node needs root (debootstrap, mounts, '
            'systemd-nspawn): run it as root')
    if (not shutil.which('systemd-nspawn') and shutil.which('apt-get')
            and log):
        say('devstack: installing systemd-container with apt-get (log %s)'
            % log)
        chroot.run_logged(
            ['apt-get', 'install', '-y', '-q', 'systemd-container'], log,
            'installing systemd-container with apt-get (run `apt-get '
            'update` once if apt knows no such package)',
            env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'))
    if not shutil.which('systemd-nspawn'):
        raise ContainerError(
            'no systemd-nspawn: install Debian\'s systemd-container '
            '(apt-get install systemd-container)')


def build(say):
    """The built root, made now unless the cache has it."""
    require_host()
    return chroot.ensure_built(cache_dir(), built_root(), is_built, _build,
                               'the DevStack node root', say)


def _build(root, say):
    log = chroot.start_build(cache_dir(), root, MARKER)
    marker = os.path.join(cache_dir(), MARKER)
    chroot.ensure_debootstrap(log)
    say('devstack: debootstrap %s, then %d packages (log %s)' % (
        SUITE, len(PACKAGES), log))
    chroot.run_logged(
        ['debootstrap', '--variant=minbase', SUITE, root, chroot.mirror()],
        log, 'debootstrap %s (is the archive reachable?)' % SUITE)
    # Nothing starts while the root is built: it is booted later.
    policy = os.path.join(root, 'usr', 'sbin', 'policy-rc.d')
    with open(policy, 'w') as f:
        f.write('#!/bin/sh\nexit 101\n')
    os.chmod(policy, 0o755)
    chroot.bind(root)
    try:
        for argv, what in (
                (['apt-get', 'update', '-q'], 'apt-get update'),
                (['apt-get', 'install', '-y', '-q',
                  '--no-install-recommends'] + list(PACKAGES),
                 'apt-get install'),
                (['apt-get', 'clean'], 'apt-get clean')):
            chroot.run_logged(chroot.command(root, argv), log,
                              '%s in the root' % what, env=NODE_ENV)
    finally:
        chroot.unmount_all(root)
    os.unlink(policy)
    with open(marker, 'w') as f:
        json.dump(_marker(), f)


class Node(object):
    """One booted node: its overlay under ``workdir`` and its nspawn."""

    def __init__(self, workdir):
        self.workdir = os.path.abspath(workdir)
        self.root = os.path.join(self.workdir, 'root')
        self.console = os.path.join(self.workdir, 'console.log')
        self.machine = 'conformance-ds-%05d' % (
            zlib.crc32(self.workdir.encode()) % 100000)

    def mount(self):
        chroot.mount_overlay(built_root(),
                             os.path.join(self.workdir, 'upper'),
                             os.path.join(self.workdir, 'work'), self.root,
                             binds=False)

    def boot(self, say):
        """Start systemd in the root; the leader's pid once it runs."""
        with open(os.path.join(self.root, 'etc', 'hostname'), 'w') as f:
            f.write(HOSTNAME + '\n')
        console = open(self.console, 'w')
        proc = subprocess.Popen(
            ['systemd-nspawn', '--boot', '--directory', self.root,
             '--machine', self.machine, '--private-network',
             '--register=no', '--keep-unit', '--console=passive',
             '--hostname', HOSTNAME],
            stdout=console, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
        console.close()
        deadline = time.monotonic() + BOOT_SECONDS
        leader = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise ContainerError(
                    'systemd-nspawn exited (%d) while booting; see %s' % (
                        proc.returncode, self.console))
            leader = leader or _leader(proc.pid)
            if leader and self._state(leader) in ('running', 'degraded'):
                self._network(leader)
                self._hide_kernel_dirs(leader)
                return proc.pid, leader
            time.sleep(1)
        raise ContainerError('the node did not finish booting in %d s; '
                             'see %s' % (BOOT_SECONDS, self.console))

    def _state(self, leader):
        done = subprocess.run(
            enter(leader, ['systemctl', 'is-system-running']),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return done.stdout.strip()

    def _network(self, leader):
        # A veth pair with both ends in the node: an address on an
        # interface that is not loopback, as a gate node's private IP.
        for argv in (
                ['ip', 'link', 'add', NODE_IFACE, 'type', 'veth', 'peer',
                 'name', NODE_IFACE + 'p'],
                ['ip', 'addr', 'add', NODE_IP + '/24', 'dev', NODE_IFACE],
                ['ip', 'link', 'set', NODE_IFACE + 'p', 'up'],
                ['ip', 'link', 'set', NODE_IFACE, 'up']):
            done = subprocess.run(enter(leader, argv),
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            if done.returncode:
                raise ContainerError('cannot give the node its address '
                                     '(%s): %s' % (' '.join(argv),
                                                   done.stdout.strip()))

    def _hide_kernel_dirs(self, leader):
        for path in HIDDEN_KERNEL_DIRS:
            argv = ['mount', '-t', 'tmpfs', '-o', 'mode=0755,size=64k',
                    'tmpfs', path]
            done = subprocess.run(enter(leader, argv),
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            if done.returncode:
                raise ContainerError('cannot hide the machine\'s %s from '
                                     'the node: %s' % (path,
                                                       done.stdout.strip()))


def _leader(nspawn_pid):
    """The pid of the node's systemd: nspawn's child."""
    try:
        with open('/proc/%d/task/%d/children' % (nspawn_pid,
                                                 nspawn_pid)) as f:
            children = f.read().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def entering(leader):
    """Pids of the machine's nsenter processes that entered the node
    whose systemd is ``leader`` (see enter)."""
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/cmdline' % entry, 'rb') as f:
                words = f.read().split(b'\0')
        except OSError:
            continue
        if (os.path.basename(words[0]) == b'nsenter'
                and words[1:3] == [b'--target', str(leader).encode()]):
            found.append(int(entry))
    return found


def is_namespace_init(pid):
    """Whether ``pid`` is the first process of a pid namespace of its
    own (a node's systemd), not a pid reused by another process."""
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('NSpid:'):
                    ids = line.split()[1:]
                    return len(ids) > 1 and ids[-1] == '1'
    except OSError:
        pass
    return False


def enter(leader, argv, env=None, cwd='/'):
    """argv run inside the node: its namespaces, its root, its PATH, in
    ``cwd`` (a path in the node)."""
    environment = dict(NODE_ENV, **(env or {}))
    return (['nsenter', '--target', str(leader), '--mount', '--uts',
             '--ipc', '--net', '--pid', '--root', '--wd',
             # nsenter's own --wd=DIR is a path of the caller's root
             'env', '-i', '--chdir=' + cwd] +
            ['%s=%s' % item for item in sorted(environment.items())] +
            list(argv))
