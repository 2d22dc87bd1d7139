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

"""Proof that the plugin installs and loads the way its users install it.

    python -m conformance_tests.tools.install_proof [--series S ...]
        [--workdir W] [--python-for SERIES=PYTHON ...]

Nobody who gates or certifies with the suite has it as this checkout's
editable install with the ``cloud`` extra. This builds the sdist and the
wheel (``python -m build``; ``twine check``), then, for each series, makes
a virtualenv that holds Tempest only (that series' Tempest) and installs
into it what a gate or a vendor's image has, each with the ``pip install
-c <the series' upper-constraints>`` DevStack's install_tempest_plugins
runs (constraints/<series>.txt, upstream's file verbatim):

1. the services' own plugins, blazar-tempest-plugin and
   senlin-tempest-plugin, and their tests as Tempest lists them;
2. this plugin's wheel, without extras; then ``pip check``;
3. every option of all three plugins registered in both load orders
   (tools/plugin_coexistence.py, run by that virtualenv's Python);
4. ``tempest run --list-tests`` there lists every test of guidelines/,
   the other two plugins' tests are what they were before (1), and the
   installed package finds its gabbits and guidelines in the installed
   data (<prefix>/share/conformance-tests), not in this checkout.

The virtualenvs stay under the workdir: tools/vendor_proof.py runs the
suite from today's one, ``<workdir>/venvs/current`` (--conformance).
--python-for gives a series another interpreter; by default each takes
its gate node's Python where this machine has one (2024.1 on Ubuntu
22.04: 3.10; today's on Debian 13: 3.13; else this one), and the
summary names each interpreter used. Exits 0 only when every step of
every series holds.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

from conformance_tests.cloud import releases
from conformance_tests.common import ui
from conformance_tests.devstack import sources

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# The oldest series upstream's constraints still serve, a stable one,
# and today's (upper-constraints.txt, the embedded cloud's own pins).
DEFAULT_SERIES = ('2024.1', '2025.1', releases.CURRENT)
# pip and Python read these from the environment: tox sets PIP_CONSTRAINT
# to today's pins, which must not reach another series' install.
DROPPED_ENV = ('PIP_CONSTRAINT', 'PIP_REQUIREMENT', 'PIP_USER',
               'PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV')
SERVICE_PLUGINS = {
    # distribution: (entry point name, test module prefix)
    'blazar-tempest-plugin': ('blazar_tests', 'blazar_tempest_plugin.'),
    'senlin-tempest-plugin': ('senlin-tempest-plugin',
                              'senlin_tempest_plugin.'),
}
# The interpreter of a gate node each series' jobs run on, where it
# differs from this one: 2024.1's jobs run on Ubuntu 22.04 (jammy,
# zuul.d/stable-jobs.yaml), the oldest Python setup.cfg admits; today's
# on Debian 13 (trixie, conformance-self-check's nodeset), the newest
# one its classifiers name. Between them the installed suite runs on
# both ends of python_requires: vendor_proof runs today's virtualenv.
GATE_PYTHON = {'2024.1': '3.10', releases.CURRENT: '3.13'}
OWN_TESTS = 'conformance_tests.'


class InstallProofError(Exception):
    pass


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.install_proof',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--series', action='append', metavar='SERIES',
                        choices=releases.SERIES,
                        help='a series whose constraints to install under '
                             '(repeatable; default: %s)' %
                             ', '.join(DEFAULT_SERIES))
    parser.add_argument('--workdir', default=os.path.join(
        '.conformance', 'install-proof'))
    parser.add_argument('--python-for', action='append', default=[],
                        metavar='SERIES=PYTHON',
                        help='the interpreter a series\' virtualenv is made '
                             'with (default: its gate node\'s where one is '
                             'found: %s; else this one)' % ', '.join(
                                 '%s %s' % pair for pair in sorted(
                                     GATE_PYTHON.items())))
    args = parser.parse_args(argv)
    try:
        pythons = _pythons(args.python_for)
    except InstallProofError as e:
        ui.fail(str(e))
        return 2
    workdir = os.path.abspath(args.workdir)
    started = time.monotonic()
    results = []
    try:
        wheel = build(os.path.join(workdir, 'dist'))
        for series in args.series or DEFAULT_SERIES:
            python = pythons.get(series) or gate_python(series)
            results.append((series, python, prove_series(
                series, python, wheel, venv_dir(workdir, series))))
    except InstallProofError as e:
        ui.fail(str(e))
        return 1
    _link_current(workdir)
    problems = [p for _, _, found in results for p in found]
    for series, python, found in results:
        ui.say('install proof %s (%s): %s' % (
            series, _version(python),
            'PASS' if not found else 'FAIL: %s' % '; '.join(found)))
    ui.say('install proof: %s, %d series in %.0f s' % (
        'PASS' if not problems else 'FAIL (%d)' % len(problems),
        len(results), time.monotonic() - started))
    return 0 if not problems else 1


def venv_dir(workdir, series):
    return os.path.join(workdir, 'venvs', series)


def _link_current(workdir):
    """<workdir>/venvs/current: today's virtualenv, whatever today's
    series is called (vendor_proof's --conformance names it)."""
    link = venv_dir(workdir, 'current')
    if os.path.islink(link):
        os.unlink(link)
    if os.path.isdir(venv_dir(workdir, releases.CURRENT)):
        os.symlink(releases.CURRENT, link)


def _pythons(pairs):
    out = {}
    for pair in pairs:
        series, sep, python = pair.partition('=')
        if not sep or series not in releases.SERIES:
            raise InstallProofError(
                '--python-for %s: give SERIES=PYTHON, SERIES one of %s' % (
                    pair, ', '.join(releases.SERIES)))
        if not shutil.which(python):
            raise InstallProofError('--python-for %s: no interpreter %s' % (
                pair, python))
        out[series] = shutil.which(python)
    return out


def gate_python(series):
    """The gate node's Python for ``series`` where this machine has it
    (on PATH or among pyenv's versions), else this interpreter."""
    version = GATE_PYTHON.get(series)
    if not version:
        return sys.executable
    found = shutil.which('python%s' % version)
    candidates = ([found] if found else []) + sorted(glob.glob(
        os.path.expanduser('~/.pyenv/versions/%s.*/bin/python%s' % (
            version, version))))
    for candidate in candidates:
        if _runs(candidate):
            return candidate
    ui.say('no Python %s on this machine: %s is installed with %s' % (
        version, series, _version(sys.executable)))
    return sys.executable


def _runs(python):
    try:
        return subprocess.run([python, '-c', 'pass'], capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _version(python):
    done = subprocess.run([python, '-c', 'import sys; print("Python %d.%d.'
                           '%d" % sys.version_info[:3])'],
                          capture_output=True, text=True)
    return done.stdout.strip() or python


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env.update(extra)
    return env


def _run(command, what, **kwargs):
    """``command``'s stdout; InstallProofError names ``what`` failed,
    with the end of its output."""
    kwargs.setdefault('env', clean_env())
    done = subprocess.run(command, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, **kwargs)
    if done.returncode:
        # pip's own warnings (an index location it ignores...) are not
        # why it failed
        tail = [line for line in (done.stdout + done.stderr).splitlines()
                if line.strip() and not line.startswith('WARNING:')][-6:]
        raise InstallProofError('%s failed (exit %d): %s' % (
            what, done.returncode, ' | '.join(tail)))
    return done.stdout


def build(dist):
    """The wheel built from this checkout (its sdist too, both checked
    by twine)."""
    shutil.rmtree(dist, ignore_errors=True)
    source = _source_tree(os.path.join(os.path.dirname(dist), 'src'))
    ui.say('building the sdist and the wheel (python -m build) from %s' %
           os.path.relpath(source))
    _run([sys.executable, '-m', 'build', '--sdist', '--wheel',
          '--outdir', dist, source], 'python -m build')
    built = sorted(os.listdir(dist))
    wheels = [f for f in built if f.endswith('.whl')]
    sdists = [f for f in built if f.endswith('.tar.gz')]
    if len(wheels) != 1 or len(sdists) != 1:
        raise InstallProofError('python -m build made %s, not one wheel '
                                'and one sdist' % (', '.join(built)))
    _run([sys.executable, '-m', 'twine', 'check', '--strict'] +
         [os.path.join(dist, f) for f in built], 'twine check')
    ui.say('built %s and %s; twine check passed' % (sdists[0], wheels[0]))
    return os.path.join(dist, wheels[0])


def _source_tree(scratch):
    """What a user builds from: a clone of this checkout's change (its
    uncommitted edits included). setuptools walks the whole source
    directory, symlinks followed, before it prunes, so building in the
    checkout itself would walk .conformance too, where another proof
    may be booting a root with /proc mounted in it. An unpacked sdist
    (no .git) is built as it is."""
    if not os.path.isdir(os.path.join(ROOT, '.git')):
        return ROOT
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        sources.clone_change(ROOT, scratch, 'main')
    except sources.SourceError as e:
        raise InstallProofError(str(e))
    return scratch


def prove_series(series, python, wheel, venv):
    """Problems of one series' install (empty: it holds)."""
    constraints = constraints_file(series)
    ui.say('%s: a Tempest-only virtualenv (%s) under %s' % (
        series, _version(python), os.path.relpath(constraints)))
    shutil.rmtree(venv, ignore_errors=True)
    _run([python, '-m', 'venv', venv], 'python -m venv')
    pip = [os.path.join(venv, 'bin', 'python'), '-m', 'pip', 'install',
           '-q', '--disable-pip-version-check', '-c', constraints]
    _run(pip + ['tempest==%s' % tempest_version(series)],
         '%s: installing Tempest' % series)
    _run(pip + sorted(SERVICE_PLUGINS),
         '%s: installing the services\' plugins' % series)
    workspace = os.path.join(venv, 'workspace')
    before = _list_tests(venv, workspace)
    # DevStack's line: pip install -c <u-c> <plugin>; a wheel, no extras.
    _run(pip + [wheel], '%s: installing the plugin\'s wheel' % series)
    _run([os.path.join(venv, 'bin', 'python'), '-m', 'pip', 'check'],
         '%s: pip check' % series)
    problems = []
    coexistence = [os.path.join(venv, 'bin', 'python'), '-m',
                   'conformance_tests.tools.plugin_coexistence']
    for entry, _ in SERVICE_PLUGINS.values():
        coexistence += ['--require', entry]
    done = subprocess.run(coexistence, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=venv,
                          env=clean_env())
    if done.returncode:
        problems.append(done.stderr.strip() or done.stdout.strip())
    after = _list_tests(venv, workspace)
    problems += listing_problems(before, after, guideline_ids())
    problems += installed_data_problems(venv)
    ui.say('%s: %d of our tests listed; %s' % (
        series, len(_ours(after)), 'holds' if not problems
        else '%d problem(s)' % len(problems)))
    return problems


def constraints_file(series):
    """The series' upper-constraints: today's are the pins the embedded
    cloud and the tox environments are built from."""
    from conformance_tests.common import paths
    if series == releases.CURRENT:
        return paths.data_path('upper-constraints.txt')
    return releases.constraints_file(series)


def tempest_version(series):
    """Tempest's version in the series' services file (today's: in
    upper-constraints.txt)."""
    path = (constraints_file(series) if series == releases.CURRENT
            else releases.services_file(series))
    with open(path) as f:
        for line in f:
            name, _, version = line.split('#')[0].strip().partition('==')
            if name.lower() == 'tempest':
                return version.lstrip('=')
    raise InstallProofError('%s names no Tempest' % path)


def _list_tests(venv, workspace):
    """Test ids `tempest run --list-tests` prints in a workspace made by
    that virtualenv's `tempest init` (run from it: FACTS, a workspace's
    .stestr.conf names its own Tempest)."""
    tempest = os.path.join(venv, 'bin', 'tempest')
    if not os.path.isdir(workspace):
        _run([tempest, 'init', workspace], 'tempest init',
             env=clean_env(HOME=venv))
    out = _run([tempest, 'run', '--list-tests'], 'tempest run --list-tests',
               cwd=workspace, env=clean_env(HOME=venv))
    return {line.strip() for line in out.splitlines()
            if line.strip() and '.' in line and ' ' not in line.strip()}


def _ours(tests):
    return {t for t in tests if t.startswith(OWN_TESTS)}


def guideline_ids():
    """Every idempotent id guidelines/ names (read from this checkout:
    what the installed copy must list)."""
    from conformance_tests.report import guidelines
    ids = set()
    for cap in guidelines.load_all():
        ids.update(cap['tests'])
    if not ids:
        raise InstallProofError('guidelines/ names no test id')
    return ids


def listing_problems(before, after, wanted_ids):
    """What the listing after the install lacks: a guideline id none of
    our tests carries, a service plugin's test that it lost or gained."""
    problems = []
    listed = ' '.join(_ours(after))
    absent = sorted(i for i in wanted_ids if 'id-%s' % i not in listed)
    if absent:
        problems.append('tempest run --list-tests lacks %d test(s) of '
                        'guidelines/: %s' % (len(absent), ', '.join(
                            absent[:5])))
    for dist, (_, prefix) in sorted(SERVICE_PLUGINS.items()):
        was = {t for t in before if t.startswith(prefix)}
        now = {t for t in after if t.startswith(prefix)}
        if not was:
            problems.append('%s lists no test: nothing to compare' % dist)
        elif was != now:
            problems.append('%s\'s tests changed beside ours: %d lost, %d '
                            'gained' % (dist, len(was - now),
                                        len(now - was)))
    return problems


def installed_data_problems(venv):
    """Whether the installed package reads its data from the venv."""
    python = os.path.join(venv, 'bin', 'python')
    out = subprocess.run(
        [python, '-c', 'from conformance_tests.common import paths\n'
         'for n in ("gabbits", "guidelines", "constraints", "playbooks"):\n'
         '    print(paths.data_path(n))'],
        capture_output=True, text=True, cwd='/', env=clean_env())
    if out.returncode:
        return ['the installed package finds no data: %s' % (
            out.stderr.strip().splitlines() or ['?'])[-1]]
    share = os.path.realpath(os.path.join(venv, 'share',
                                          'conformance-tests'))
    return ['%s is read from %s, not the installed data in %s' % (
        os.path.basename(p), p, share)
        for p in out.stdout.split()
        if not os.path.realpath(p).startswith(share + os.sep)]


if __name__ == '__main__':
    sys.exit(main())
