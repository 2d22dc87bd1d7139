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

"""The packaged cloud's root: built once from Debian's archive, then a
fresh overlay of it for every cloud.

The built root (debootstrap of trixie plus every package the deployment
runs, about 550, installed but not configured) is slow to make and never
changes, so it is kept in the cache (``$CONFORMANCE_CACHE``, else
``~/.cache/conformance``) with a marker naming what it holds; a root
without the marker (a build that died) or with another one (the package
list changed) is built again. Nothing depends on the cache being there.
Two runs that find it missing at once build it once: the second waits
(common/build_lock.py).

A cloud's root is an overlay: the built root below, an empty directory
above, so every `up` starts from the packages as installed, and `down`
throws the cloud's state away with the upper directory. /proc, /sys,
/dev and /dev/pts are bound into it (MariaDB, RabbitMQ and Python need
them). `unmount_all` undoes every mount under a cloud's root, found in
/proc/self/mountinfo, deepest first, also those of a run that was
killed.

The archive is the one this machine's apt uses (its sources), unless
``$CONFORMANCE_DEBIAN_MIRROR`` names another.
"""

import glob
import json
import os
import re
import shutil
import subprocess

from conformance_tests.common import build_lock
from conformance_tests.packaged import layout

SUITE = 'trixie'
#: What the deployment runs (layout.py says what each is for). nova-compute
#: is not here: its package pulls libvirt and qemu, and nova's fake driver
#: needs neither; the computes run python3-nova's own entry point.
PACKAGES = (
    'mariadb-server', 'rabbitmq-server', 'uwsgi-plugin-python3',
    'python3-pymysql', 'keystone', 'placement-api', 'nova-api',
    'nova-conductor', 'nova-scheduler', 'python3-nova', 'glance-api',
    'neutron-server', 'blazar-api', 'blazar-manager', 'python3-blazarnova',
    'python3-blazarclient', 'python3-openstackclient',
    # the Zuul jobs' setup playbooks run in the root (deploy.py)
    'ansible-core', 'crudini', 'sudo',
)
MARKER = 'conformance-packaged.json'
BINDS = ('proc', 'sys', 'dev', 'dev/pts')
#: An environment for commands in the root: nothing of the caller's
#: virtualenv or Python leaks in.
ROOT_ENV = {
    'PATH': '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    'LANG': 'C.UTF-8', 'HOME': '/root', 'DEBIAN_FRONTEND': 'noninteractive',
}


class PackagedError(Exception):
    """One line: what failed and where its log is."""


def cache_base():
    """Where the built roots are kept: $CONFORMANCE_CACHE, else
    ~/.cache/conformance."""
    return os.environ.get('CONFORMANCE_CACHE') or os.path.join(
        os.path.expanduser('~'), '.cache', 'conformance')


def cache_dir():
    return os.path.join(cache_base(), 'packaged', layout.NAME)


def mirror():
    """The Debian archive this machine's apt reads (or the override)."""
    override = os.environ.get('CONFORMANCE_DEBIAN_MIRROR')
    if override:
        return override
    for path in sorted(glob.glob('/etc/apt/sources.list.d/*.sources')):
        with open(path) as f:
            text = f.read()
        for stanza in text.split('\n\n'):
            if re.search(r'(?m)^Suites:.*\b(bookworm|trixie|sid)\b', stanza):
                found = re.search(r'(?m)^URIs:\s*(\S+)', stanza)
                if found and not found.group(1).endswith('-security'):
                    return found.group(1)
    if os.path.exists('/etc/apt/sources.list'):
        with open('/etc/apt/sources.list') as f:
            for line in f:
                words = line.split()
                if len(words) > 2 and words[0] == 'deb' and \
                        not words[1].endswith('-security'):
                    return words[1]
    raise PackagedError(
        'no Debian archive in /etc/apt/sources.list(.d): set '
        '$CONFORMANCE_DEBIAN_MIRROR to the archive\'s URL')


def require_root():
    if os.geteuid() != 0:
        raise PackagedError(
            'the packaged cloud needs root (debootstrap, chroot, mounts): '
            'run it as root')


def run_logged(cmd, log, what, env=None):
    """cmd with its output appended to ``log``; PackagedError naming
    ``what`` and the log when it fails."""
    with open(log, 'a') as out:
        out.write('\n$ %s\n' % ' '.join(cmd))
        out.flush()
        done = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=env)
    if done.returncode:
        raise PackagedError('%s failed (exit %d); see %s' % (
            what, done.returncode, log))


def ensure_debootstrap(log):
    if shutil.which('debootstrap'):
        return
    run_logged(['apt-get', 'install', '-y', '-q', 'debootstrap'], log,
               'installing debootstrap with apt-get (run `apt-get update` '
               'once if apt knows no such package)',
               env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'))


def _marker():
    return {'suite': SUITE, 'packages': sorted(PACKAGES)}


def built_root():
    return os.path.join(cache_dir(), 'root')


#: The packages whose versions name the deployment (the matrix's header).
SERVICE_PACKAGES = {'python3-keystone': 'keystone',
                    'python3-placement': 'placement', 'python3-nova': 'nova',
                    'python3-glance': 'glance', 'python3-neutron': 'neutron',
                    'python3-blazar': 'blazar',
                    'python3-blazarnova': 'blazar-nova'}


def package_versions(root=None):
    """{service: upstream version} of the services installed in the built
    root (dpkg's status file: epoch and Debian revision dropped); {} when
    no root is built."""
    path = os.path.join(root or built_root(), 'var', 'lib', 'dpkg',
                        'status')
    if not os.path.exists(path):
        return {}
    versions, package = {}, None
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('Package: '):
                package = line.split(None, 1)[1].strip()
            elif line.startswith('Version: ') and package in SERVICE_PACKAGES:
                version = line.split(None, 1)[1].strip()
                version = version.split(':', 1)[-1].rsplit('-', 1)[0]
                versions[SERVICE_PACKAGES[package]] = version
    return versions


def is_built():
    try:
        with open(os.path.join(cache_dir(), MARKER)) as f:
            return json.load(f) == _marker()
    except (OSError, ValueError):
        return False


def build(say):
    """The built root, made now unless the cache has it. Returns its path."""
    require_root()
    return ensure_built(cache_dir(), built_root(), is_built, _build,
                        'the packaged root', say)


def ensure_built(cache, root, is_built, build_root, what, say):
    """``root`` in ``cache``, built by ``build_root(root, say)`` unless
    ``is_built()``; two callers that find it missing build it once (the
    second waits)."""
    if is_built():
        return root
    os.makedirs(cache, exist_ok=True)
    with build_lock.exclusive(cache + '.lock', what, say):
        # Another build may have finished while this one waited.
        if not is_built():
            build_root(root, say)
    return root


def start_build(cache, root, marker_name):
    """An empty build log in ``cache`` (its path returned), no root and
    no marker: what a build starts from, also after one that died."""
    log = os.path.join(cache, 'build.log')
    open(log, 'w').close()
    unmount_all(root)
    shutil.rmtree(root, ignore_errors=True)
    marker = os.path.join(cache, marker_name)
    if os.path.exists(marker):
        os.unlink(marker)
    return log


def _build(root, say):
    log = start_build(cache_dir(), root, MARKER)
    marker = os.path.join(cache_dir(), MARKER)
    ensure_debootstrap(log)
    archive = mirror()
    say('packaged: debootstrap %s from the archive apt uses (log %s)' % (
        SUITE, log))
    run_logged(['debootstrap', '--variant=minbase', SUITE, root, archive],
               log, 'debootstrap %s (is the archive reachable?)' % SUITE)
    # Postinst scripts must start nothing: the deployment starts each
    # daemon itself and keeps its pid.
    policy = os.path.join(root, 'usr', 'sbin', 'policy-rc.d')
    with open(policy, 'w') as f:
        f.write('#!/bin/sh\nexit 101\n')
    os.chmod(policy, 0o755)
    bind(root)
    try:
        say('packaged: apt-get install %d packages in the root' % len(
            PACKAGES))
        run_logged(['chroot', root, 'apt-get', 'update', '-q'], log,
                   'apt-get update in the root', env=ROOT_ENV)
        run_logged(['chroot', root, 'apt-get', 'install', '-y', '-q',
                    '--no-install-recommends'] + list(PACKAGES), log,
                   'apt-get install in the root', env=ROOT_ENV)
        run_logged(['chroot', root, 'apt-get', 'clean'], log,
                   'apt-get clean in the root', env=ROOT_ENV)
    finally:
        unmount_all(root)
    with open(marker, 'w') as f:
        json.dump(_marker(), f)


def bind(root):
    for name in BINDS:
        target = os.path.join(root, name)
        os.makedirs(target, exist_ok=True)
        subprocess.run(['mount', '--bind', '/' + name, target], check=True)


def mount_overlay(lower, upper, work, target, binds=True):
    for path in (upper, work, target):
        os.makedirs(path, exist_ok=True)
    done = subprocess.run(
        ['mount', '-t', 'overlay', 'overlay', '-o',
         'lowerdir=%s,upperdir=%s,workdir=%s' % (lower, upper, work),
         target], stderr=subprocess.PIPE, text=True)
    if done.returncode:
        raise PackagedError('cannot mount the cloud\'s overlay on %s: %s' % (
            target, done.stderr.strip()[-200:]))
    if binds:
        bind(target)


def mounts_under(root):
    """Every mount point at or under ``root``, deepest first."""
    root = os.path.realpath(root)
    found = []
    with open('/proc/self/mountinfo') as f:
        for line in f:
            point = line.split()[4].replace('\\040', ' ')
            if point == root or point.startswith(root + os.sep):
                found.append(point)
    return sorted(set(found), key=lambda p: p.count(os.sep), reverse=True)


def unmount_all(root):
    """Undo every mount under ``root``; lazily where one is busy."""
    for point in mounts_under(root):
        if subprocess.run(['umount', point],
                          stderr=subprocess.DEVNULL).returncode:
            subprocess.run(['umount', '-l', point],
                           stderr=subprocess.DEVNULL)
    left = mounts_under(root)
    if left:
        raise PackagedError('still mounted after umount: %s' % ', '.join(
            left))


def command(root, argv):
    """argv run inside ``root``."""
    return ['chroot', root] + list(argv)
