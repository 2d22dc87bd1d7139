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

"""The job's projects on the node, where Zuul puts them: one git
repository per required project under ~zuul/src/<canonical name>, on the
job's branch.

Zuul's executor pushes those repositories to the node before the job;
DevStack's setup-devstack-source-dirs role then copies them into
/opt/stack and checks out the branch. Here they come from what this
machine can reach:

- DevStack and openstack/requirements: a directory or a ``git archive``
  tarball per branch (``--devstack-src``; ``../shared/upstream/`` holds
  ``devstack-<branch>.tar.gz`` and ``requirements-<branch>.tar.gz``,
  the branch's slash as a dash);
- this project: a clone of the checkout the command runs from, its HEAD,
  as Zuul gives the change;
- every other project: its release sdist from PyPI, which holds every file
  of the repository (pbr), at the version the series' services file
  names (``constraints/<series>.services.txt``, and for what only
  DevStack runs, such as neutron, ``<series>.devstack.txt``). The
  repository is tagged with that version, so pbr reads the release's
  version from git as it does in a release checkout;
- os-test-images (required by DevStack's base job from 2025.1, on
  neither PyPI nor ../shared/upstream): a stand-in that lists no image
  (standin_projects/).

A required project none of these has (openstack-zuul-jobs' novnc, a
project no services file pins) is left out and named in the layout's
``missing`` list: DevStack itself says so (ERROR_ON_CLONE) if an
enabled service needs it.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from conformance_tests.cloud import releases
from conformance_tests.common import paths

#: The namespace of OpenStack's projects on a gate node (src/<here><name>).
OPENSTACK = 'opendev.org/openstack/'
OWN_PROJECT = OPENSTACK + 'openstack-conformance-tests'
FROM_TARBALLS = ('devstack', 'requirements')
#: Required projects neither PyPI nor ../shared/upstream has, replaced by
#: a minimal stand-in (standin_projects/README.md says what each leaves
#: out).
STANDIN_PROJECTS = {
    name: os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'standin_projects', name)
    for name in ('os-test-images', 'conformance-node')}
#: PyPI's name where it is not the repository's.
PYPI_NAMES = {'placement': 'openstack-placement', 'heat': 'openstack-heat'}
#: An override-checkout that names a release, not a branch.
RELEASE_TAG = re.compile(r'^\d+(\.\d+)+$')
#: master has no release on PyPI, and a release of one series does not
#: run under master's constraints (placement 15.0.0 reads
#: [oslo_policy] enforce_scope, which master's oslo.policy no longer
#: has): a master job runs on the newest series' branch instead, its
#: DevStack, requirements and releases all of one series.
NEWEST_SERIES = '2026.1'
GIT_ENV = {'GIT_AUTHOR_NAME': 'conformance devstack',
           'GIT_AUTHOR_EMAIL': 'conformance@localhost',
           'GIT_COMMITTER_NAME': 'conformance devstack',
           'GIT_COMMITTER_EMAIL': 'conformance@localhost'}


class SourceError(Exception):
    """One line: which project could not be laid out, and what to do."""


def source_branch(branch):
    """The branch whose DevStack, requirements and releases a job of
    ``branch`` gets here (see NEWEST_SERIES)."""
    return 'stable/' + NEWEST_SERIES if branch == 'master' else branch


def series_of(branch):
    """The release series a branch's services come from."""
    found = re.match(r'^(?:stable|unmaintained)/(\d{4}\.\d)$', branch)
    if found:
        return found.group(1)
    if branch == 'master':
        return NEWEST_SERIES
    raise SourceError('branch %s is neither master nor stable/<series> nor '
                      'unmaintained/<series>: give one of those' % branch)


def devstack_file(series):
    """The series' DevStack-only pins (constraints/<series>.devstack.txt):
    projects a DevStack job lays out that the embedded cloud never
    runs, kept out of the services file releases.py installs whole."""
    return paths.data_path(os.path.join(releases.CONSTRAINTS_DIR,
                                        series + '.devstack.txt'))


def services_versions(series):
    """{pypi name: version} of the series' services file and its
    DevStack-only pins."""
    path = releases.services_file(series)
    if not os.path.exists(path):
        raise SourceError('no services file for series %s (%s): pick a '
                          'branch of %s' % (
                              series, path, ', '.join(releases.OLDER)))
    pins = {}
    lines = releases.read_pins(path)
    if os.path.exists(devstack_file(series)):
        lines += releases.read_pins(devstack_file(series))
    for line in lines:
        name, _, version = line.partition('===')
        pins[releases.norm(name)] = version.strip()
    return pins


def tarball(devstack_src, project, branch):
    """The directory or tarball of DevStack or requirements for branch."""
    flat = branch.replace('/', '-')
    for candidate in (os.path.join(devstack_src, project),
                      os.path.join(devstack_src, '%s-%s.tar.gz' % (
                          project, flat))):
        if os.path.exists(candidate):
            return candidate
    raise SourceError(
        'no %s for branch %s in %s: put %s-%s.tar.gz (git archive '
        '--prefix=%s/) or a %s/ checkout there, or give --devstack-src' % (
            project, branch, devstack_src, project, flat, project, project))


def _git(repo, *argv):
    done = subprocess.run(['git', '-C', repo] + list(argv),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=dict(os.environ, **GIT_ENV))
    if done.returncode:
        raise SourceError('git %s in %s failed: %s' % (
            ' '.join(argv), repo, done.stdout.strip()[-300:]))
    return done.stdout


def _commit(repo, branch, tag=None):
    _git(repo, 'init', '-q', '-b', branch)
    _git(repo, 'add', '-A')
    _git(repo, 'commit', '-q', '--no-verify', '-m', 'as released')
    if tag:
        _git(repo, 'tag', '-a', tag, '-m', tag)


def extract(archive, dest):
    """The tree of ``archive`` under its single top directory, to dest."""
    with tempfile.TemporaryDirectory() as scratch:
        with tarfile.open(archive) as tar:
            tar.extractall(scratch, filter='tar')
        entries = os.listdir(scratch)
        if len(entries) != 1:
            raise SourceError('%s holds %s, not one top directory' % (
                archive, entries))
        shutil.move(os.path.join(scratch, entries[0]), dest)


def sdist(name, version, cache):
    """The sdist of name==version, downloaded once into ``cache``."""
    os.makedirs(cache, exist_ok=True)
    pattern = os.path.join(cache, '%s-%s.tar.gz' % (
        name.replace('-', '[-_]'), version))
    found = glob.glob(pattern)
    if not found:
        done = subprocess.run(
            [sys.executable, '-m', 'pip', 'download', '--no-deps',
             '--no-binary', ':all:', '--no-build-isolation', '-q',
             '-d', cache,
             '%s==%s' % (name, version)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=dict(os.environ, PIP_CONSTRAINT='', PIP_FIND_LINKS=''))
        found = glob.glob(pattern)
        if not found:
            raise SourceError('cannot download the sdist of %s==%s from '
                              'PyPI: %s' % (name, version,
                                            done.stdout.strip()[-300:]))
    return found[0]


def own_checkout():
    """The git checkout this package runs from, or SourceError."""
    repo = paths.checkout()
    if not repo or not os.path.isdir(os.path.join(repo, '.git')):
        raise SourceError('the plugin is not run from a git checkout (%s): '
                          'run `conformance devstack` from a clone of the '
                          'project, as Zuul gives the change' % repo)
    return repo


def _change(repo):
    """The commit Zuul would give as the change: HEAD, or when the
    checkout has changes (new files included, ignored ones not) a commit
    of the working tree on top of HEAD, made without touching the
    checkout or its index."""
    head = _git(repo, 'rev-parse', 'HEAD').strip()
    if not _git(repo, 'status', '--porcelain').strip():
        return head
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(scratch, 'i'),
                   **GIT_ENV)
        for argv in (['read-tree', head], ['add', '-A']):
            subprocess.run(['git', '-C', repo] + argv, check=True, env=env,
                           stdout=subprocess.DEVNULL)
        tree = subprocess.run(['git', '-C', repo, 'write-tree'], env=env,
                              check=True, stdout=subprocess.PIPE,
                              text=True).stdout.strip()
    return _git(repo, 'commit-tree', tree, '-p', head, '-m',
                'the working tree of %s' % repo).strip()


def clone_change(repo, dest, branch):
    """A clone of ``repo`` at dest whose ``branch`` is the change (see
    _change): the tree a user builds from, without the checkout's
    ignored files (workdirs, virtualenvs, a booted root under
    .conformance). Returns the change's commit."""
    change = _change(repo)
    _git(repo, 'clone', '-q', '--no-hardlinks', repo, dest)
    _git(dest, 'fetch', '-q', repo, change)
    _git(dest, 'checkout', '-q', '-B', branch, change)
    return change


def release_versions(projects, branch, checkouts=None):
    """{PyPI name: version} of the ``projects`` lay_out takes from
    their release sdists on ``branch`` (the matrix's column header):
    the series' pin, or the release a job's override-checkout names
    (``checkouts``: {canonical name: tag or branch})."""
    versions = services_versions(series_of(branch))
    found = {}
    for canonical in projects:
        short = canonical.rsplit('/', 1)[-1]
        name = PYPI_NAMES.get(short, short)
        if short in FROM_TARBALLS or short in STANDIN_PROJECTS:
            continue
        tag = (checkouts or {}).get(canonical, '')
        if RELEASE_TAG.match(tag):
            found[name] = tag
        elif versions.get(releases.norm(name)):
            found[name] = versions[releases.norm(name)]
    return found


def lay_out(src_root, projects, branch, devstack_src, cache, say,
            checkouts=None):
    """One repository per project under ``src_root``; returns the list of
    projects left out, each with its reason. ``checkouts`` are the job's
    override-checkouts: one that names a release tag picks that release
    (senlin 16.0.0, retired after it), a branch changes nothing."""
    versions = release_versions(projects, branch, checkouts)
    missing = []
    for canonical in projects:
        short = canonical.rsplit('/', 1)[-1]
        dest = os.path.join(src_root, canonical)
        if os.path.isdir(dest):
            shutil.rmtree(dest)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if canonical == OWN_PROJECT:
            repo = own_checkout()
            change = clone_change(repo, dest, branch)
            say('devstack: %s at %s from %s' % (short, change[:7], repo))
            continue
        if short in STANDIN_PROJECTS:
            say('devstack: %s: a stand-in (%s)' % (short, os.path.relpath(
                STANDIN_PROJECTS[short], os.path.dirname(__file__))))
            shutil.copytree(STANDIN_PROJECTS[short], dest)
            _commit(dest, branch)
            continue
        if short in FROM_TARBALLS:
            origin = tarball(devstack_src, short, branch)
            say('devstack: %s %s from %s' % (short, branch, origin))
            if os.path.isdir(origin):
                shutil.copytree(origin, dest, symlinks=True,
                                ignore=shutil.ignore_patterns('.git'))
            else:
                extract(origin, dest)
            _commit(dest, branch)
            continue
        name = PYPI_NAMES.get(short, short)
        version = versions.get(name)
        if not version:
            missing.append((canonical, 'no release of %s in %s' % (
                name, os.path.basename(releases.services_file(
                    series_of(branch))))))
            continue
        archive = sdist(name, version, cache)
        say('devstack: %s %s from its sdist' % (short, version))
        extract(archive, dest)
        _commit(dest, branch, tag=version)
    return missing
