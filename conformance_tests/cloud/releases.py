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

"""OpenStack release series the embedded cloud can be built from.

The current series is what ``upper-constraints.txt`` pins: the suite's
own virtualenv runs it, no other is needed. Every older series runs in a
virtualenv of its own, ``<cache>/venvs/<series>`` (cache:
``$CONFORMANCE_CACHE``, else ``~/.cache/conformance``), built on first
use from two data files of this package:

- ``constraints/<series>.txt``: openstack/requirements'
  upper-constraints of that series, verbatim (its header names the
  branch or tag), as DevStack installs Tempest's plugins under them;
- ``constraints/<series>.services.txt``: the services, clients and
  Tempest of that series (upstream constraints never pin services).

Into it go this package's requirements and its ``cloud`` extra, each
service pinned by the services file (so Tempest is that series' Tempest,
not our ``tempest>=43``), all under the series' constraints; then this
package itself, without its dependencies. Senlin is in no series from
2024.1 on: its ``cloud`` requirement then brings its last release,
16.0.0, as in the current cloud.

A marker file written last records what was installed; a virtualenv
without it (a build that died) or with another one (a constraints file
changed) is removed and built again. One that differs only in the
checkout this package is installed from (a new clone: it is installed
editable) gets this package alone installed again, as a build's last
step does, in seconds instead of the minute a build takes. A lock file
keeps a second build of the same series waiting for the first. A pip
failure is one line naming the package pip could not install; pip's
whole output is kept in ``<cache>/venvs/<series>.log``.
"""

import hashlib
from importlib import metadata
import json
import os
import re
import shutil
import subprocess
import sys

from conformance_tests.common import build_lock
from conformance_tests.common import paths

#: The series of upper-constraints.txt (nova 34, placement 16,
#: keystone 30, blazar 18): the default, run by the suite's own
#: virtualenv.
CURRENT = '2026.2'
#: Older series with constraints/<series>.txt and .services.txt.
OLDER = ('2024.1', '2024.2', '2025.1', '2025.2', '2026.1')
#: Every series `--release` takes, oldest first.
SERIES = OLDER + (CURRENT,)

DISTRIBUTION = 'openstack-conformance-tests'
#: This package's extras that go into a series' virtualenv.
EXTRAS = ('cloud',)
MARKER = 'conformance-release.json'
CONSTRAINTS_DIR = 'constraints'
# pip reads these from the environment; a series' build must not inherit
# the current series' constraints (tox sets PIP_CONSTRAINT) or another
# virtualenv's paths.
_DROPPED_ENV = ('PIP_CONSTRAINT', 'PIP_REQUIREMENT', 'PIP_USER',
                'PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV')


class ReleaseError(Exception):
    """A one-line reason a series cannot be used."""


def cache_dir():
    return os.environ.get('CONFORMANCE_CACHE') or os.path.join(
        os.path.expanduser('~'), '.cache', 'conformance')


def venv_dir(series):
    return os.path.join(cache_dir(), 'venvs', series)


def bin_path(venv, program):
    return os.path.join(venv, 'bin', program)


def check_series(series):
    if series not in SERIES:
        raise ReleaseError('unknown release %r (known: %s)' % (
            series, ', '.join(SERIES)))
    return series


def constraints_file(series):
    return paths.data_path(os.path.join(CONSTRAINTS_DIR, series + '.txt'))


def services_file(series):
    return paths.data_path(os.path.join(CONSTRAINTS_DIR,
                                        series + '.services.txt'))


def norm(name):
    return re.sub(r'[-_.]+', '-', name).lower()


def _name(requirement):
    return re.match(r'\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)', requirement).group(1)


def read_pins(path):
    """The requirement lines of a pins file, comments and blanks left out."""
    with open(path) as f:
        return [line.split('#', 1)[0].strip() for line in f
                if line.split('#', 1)[0].strip()]


def own_requirements(extras=EXTRAS):
    """This package's requirements and those of ``extras``, without
    markers (from its installed metadata)."""
    try:
        declared = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        raise ReleaseError('%s is not installed (pip install -e .)' %
                           DISTRIBUTION)
    result = []
    for line in declared:
        requirement, _, marker = line.partition(';')
        extra = re.search(r'''extra\s*==\s*['"]([^'"]+)['"]''', marker)
        if marker.strip() and not (extra and extra.group(1) in extras):
            continue
        result.append(requirement.strip())
    return result


def requirements(series):
    """What pip installs into the series' virtualenv: its services file,
    then every requirement of ours it does not pin."""
    pinned = read_pins(services_file(series))
    names = {norm(_name(p)) for p in pinned}
    return pinned + [r for r in own_requirements()
                     if norm(_name(r)) not in names]


def own_install_args():
    checkout = paths.checkout()
    if checkout:
        return ['-e', checkout]
    return ['%s==%s' % (DISTRIBUTION, metadata.version(DISTRIBUTION))]


def _digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def expected_marker(series):
    """What a complete virtualenv of ``series`` records: anything that
    changes here makes it stale."""
    return {
        'series': series,
        'constraints': _digest(constraints_file(series)),
        'services': _digest(services_file(series)),
        'requirements': requirements(series),
        'own': own_install_args(),
        'python': '%d.%d' % sys.version_info[:2],
    }


def read_marker(venv):
    try:
        with open(os.path.join(venv, MARKER)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write_marker(venv, marker):
    path = os.path.join(venv, MARKER)
    with open(path + '.tmp', 'w') as f:
        json.dump(marker, f, indent=1, sort_keys=True)
    os.replace(path + '.tmp', path)


def is_current(series):
    return check_series(series) == CURRENT


def ensure_venv(series, say):
    """The virtualenv that runs ``series`` (its directory), built first
    if it is missing, half-built or stale. The current series needs none:
    its answer is this interpreter's prefix. Raises ReleaseError."""
    if is_current(series):
        return sys.prefix
    venv = venv_dir(series)
    want = expected_marker(series)
    if read_marker(venv) == want:
        return venv
    os.makedirs(os.path.dirname(venv), exist_ok=True)
    with build_lock.exclusive(venv + '.lock', 'the %s virtualenv' % series,
                              say):
        # Another build may have finished while this one waited.
        have = read_marker(venv)
        if have == want:
            return venv
        if _differs_only_in_own(have, want):
            _reinstall_own(series, venv, want, say)
        else:
            _build(series, venv, want, say)
    return venv


def _differs_only_in_own(have, want):
    if not have:
        return False
    return ({k: v for k, v in have.items() if k != 'own'}
            == {k: v for k, v in want.items() if k != 'own'})


def _reinstall_own(series, venv, want, say):
    """This package from another checkout into a complete virtualenv:
    the build's last step alone. The marker goes first, so a step that
    dies leaves a virtualenv the next use builds again."""
    os.remove(os.path.join(venv, MARKER))
    say('%s virtualenv: installing this package from %s' % (
        series, ' '.join(want['own'])))
    with open(venv + '.log', 'a') as out:
        _step(out, _build_env(), series, 'pip install',
              _pip(venv) + ['--no-deps'] + want['own'])
    _write_marker(venv, want)


def _build(series, venv, want, say):
    log = venv + '.log'
    if os.path.exists(venv):
        say('removing the stale or unfinished %s virtualenv' % series)
        shutil.rmtree(venv)
    say('building the %s virtualenv in %s (minutes; log: %s)' % (
        series, venv, log))
    env = _build_env()
    pip = _pip(venv)
    with open(log, 'w') as out:
        _step(out, env, series, 'python -m venv',
              [sys.executable, '-m', 'venv', venv])
        say('%s: installing its services, Tempest and our requirements' %
            series)
        _step(out, env, series, 'pip install',
              pip + ['-c', constraints_file(series)] + want['requirements'])
        _step(out, env, series, 'pip install',
              pip + ['--no-deps'] + want['own'])
    _write_marker(venv, want)
    say('%s virtualenv ready' % series)


def _build_env():
    return {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}


def _pip(venv):
    return [bin_path(venv, 'python'), '-m', 'pip', 'install', '--no-input']


def _step(out, env, series, what, argv):
    """Run one build step, its output streamed into the log ``out``."""
    out.write('$ %s\n' % ' '.join(argv))
    out.flush()
    start = out.tell()
    result = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env)
    if result.returncode:
        with open(out.name, errors='replace') as f:
            f.seek(start)
            output = f.read()
        raise ReleaseError('cannot build the %s virtualenv: %s; log: %s' % (
            series, explain_failure(what, output, result.returncode),
            out.name))


# What pip says when it cannot install something, newest pip first; the
# group is the package (or packages) it names.
_NAME = r'([A-Za-z0-9][A-Za-z0-9_.\-]*)'
_PIP_FAILURES = (
    r'No matching distribution found for ' + _NAME,
    r'Could not find a version that satisfies the requirement ' + _NAME,
    r'Failed to build installable wheels for some pyproject\.toml based '
    r'projects \(([^)]+)\)',
    r'Could not build wheels for ([^,]+(?:, [^,]+)*?), which is required',
    r'Failed to build ([A-Za-z0-9][A-Za-z0-9_.\- ]*)$',
    r'Failed building wheel for ' + _NAME,
    r'Cannot install (.+?) because these package versions have '
    r'conflicting dependencies',
)
_TRIED = re.compile(r'^\s*(?:Collecting|Building wheel for|Obtaining|'
                    r'Processing|Preparing metadata .* for|Running setup\.py '
                    r'install for) ' + _NAME, re.M)


def failed_package(output):
    """The package pip names as the one it could not install, or None."""
    for pattern in _PIP_FAILURES:
        match = re.search(pattern, output, re.M)
        if match:
            return match.group(1).strip()
    tried = _TRIED.findall(output)
    return tried[-1] if tried else None


def explain_failure(what, output, returncode):
    """One line: which package pip could not install, and pip's reason."""
    lines = [line.strip() for line in output.splitlines()]
    errors = ([line for line in lines if line.startswith('ERROR:')] or
              [line for line in lines if line.startswith('error:')] or
              ['%s exited with %d' % (what, returncode)])
    reason = errors[0]
    if len(reason) > 200:
        reason = reason[:197] + '...'
    package = failed_package(output)
    if package:
        return '%s could not install %s (%s)' % (what, package, reason)
    return '%s failed (%s)' % (what, reason)


def command(venv, argv, program='conformance'):
    """argv that runs ``program`` from ``venv`` with ``argv``, the
    ``--release`` option removed (what `--release` re-executes)."""
    rest, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == '--release':
            skip = True
        elif not arg.startswith('--release='):
            rest.append(arg)
    return [bin_path(venv, program)] + rest
