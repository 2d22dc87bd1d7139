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

"""Build the docs and the release notes with Sphinx, warnings as errors.

    python -m conformance_tests.tools.docs_build [--only docs|releasenotes]
        [--workdir W]

``tox -e docs``, ``tox -e releasenotes`` and ``tox -e check`` run this.
The docs (doc/source) first get their generated pages: the capability
catalogue from guidelines/ (conformance_tests/docs/catalogue.py) and the
options sample from the plugin's option definitions
(oslo-config-generator), both written by this interpreter, which must
have the suite installed; the release notes need only git. The documentation
tools are pinned in doc/requirements.txt and live in a virtualenv of
their own (<workdir>/docs-venv): Sphinx 9 needs a docutils older than the
one today's upper-constraints pin for the suite, so they cannot share the
suite's virtualenv or its PIP_CONSTRAINT. The virtualenv is kept while
doc/requirements.txt is unchanged (a stamp holds its digest) and rebuilt
otherwise; nothing depends on it being there.

reno reads the notes from git history (releasenotes/notes/ as committed),
so this runs in a git checkout. Only the standard library is imported
at the top: ``tox -e releasenotes`` does not install the suite.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
REQUIREMENTS = os.path.join(ROOT, 'doc', 'requirements.txt')
# The suite's pins must not reach the documentation tools' install.
DROPPED_ENV = ('PIP_CONSTRAINT', 'PIP_REQUIREMENT', 'PYTHONPATH',
               'VIRTUAL_ENV')


class BuildError(Exception):
    """One line: what failed and where its output is."""


def say(text):
    print('[docs] %s' % text, flush=True)


def clean_env():
    return {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}


def _digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def _run(argv, what, log):
    with open(log, 'a') as out:
        out.write('$ %s\n' % ' '.join(argv))
        out.flush()
        done = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT,
                              env=clean_env(), cwd=ROOT)
    if done.returncode:
        raise BuildError('%s failed (exit %d): see %s' % (
            what, done.returncode, log))


def ensure_venv(workdir, log):
    """The documentation tools' virtualenv, (re)built when
    doc/requirements.txt changed; return its bin directory."""
    venv = os.path.join(workdir, 'docs-venv')
    stamp = os.path.join(venv, 'requirements.sha256')
    wanted = _digest(REQUIREMENTS)
    bindir = os.path.join(venv, 'bin')
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read().strip() == wanted:
                say('documentation tools: kept %s' % venv)
                return bindir
    shutil.rmtree(venv, ignore_errors=True)
    say('documentation tools: installing doc/requirements.txt into %s'
        % venv)
    _run([sys.executable, '-m', 'venv', venv], 'python -m venv', log)
    _run([os.path.join(bindir, 'python'), '-m', 'pip', 'install', '-q',
          '-r', REQUIREMENTS], 'pip install -r doc/requirements.txt', log)
    with open(stamp, 'w') as f:
        f.write(wanted + '\n')
    return bindir


GENERATED = os.path.join(ROOT, 'doc', 'source', 'reference', '_generated')
SAMPLE = 'conformance-tests.conf.sample'


def generate_reference(log):
    """The catalogue and the options sample, into doc/source's
    reference/_generated (not in git: made for every build)."""
    from conformance_tests.docs import catalogue
    os.makedirs(GENERATED, exist_ok=True)
    catalogue.write(os.path.join(GENERATED, 'capabilities.rst'))
    _run([sys.executable, '-m', 'oslo_config.generator', '--namespace',
          'conformance_tests', '--output-file',
          os.path.join(GENERATED, SAMPLE)],
         'oslo-config-generator --namespace conformance_tests', log)


def _sphinx(bindir, source, out, what, log):
    shutil.rmtree(out, ignore_errors=True)
    _run([os.path.join(bindir, 'sphinx-build'), '-a', '-E', '-W',
          '--keep-going', '-q', '-d', os.path.join(out, 'doctrees'),
          '-b', 'html', source, os.path.join(out, 'html')],
         'sphinx-build of %s (warnings are errors)' % what, log)
    return os.path.join(out, 'html', 'index.html')


def build_docs(bindir, workdir, log):
    """doc/source, after its generated pages; return the HTML index."""
    generate_reference(log)
    return _sphinx(bindir, os.path.join(ROOT, 'doc', 'source'),
                   os.path.join(workdir, 'docs'), 'doc/source', log)


def build_releasenotes(bindir, workdir, log):
    """sphinx-build -W of releasenotes/source; return the HTML index."""
    _run([os.path.join(bindir, 'reno'), 'lint'], 'reno lint', log)
    return _sphinx(bindir, os.path.join(ROOT, 'releasenotes', 'source'),
                   os.path.join(workdir, 'releasenotes'),
                   'releasenotes/source', log)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--workdir', default=os.path.join(ROOT,
                                                          '.conformance'),
                        help='where the virtualenv and the HTML go '
                             '(default: .conformance)')
    parser.add_argument('--only', choices=('docs', 'releasenotes'),
                        help='build only this (default: both)')
    args = parser.parse_args(argv)
    if not os.path.isdir(os.path.join(ROOT, '.git')):
        print('docs_build: error: %s is not a git checkout; reno reads the '
              'release notes from git history' % ROOT, file=sys.stderr)
        return 2
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    log = os.path.join(workdir, 'docs-build.log')
    open(log, 'w').close()
    started = time.monotonic()
    builds = [(name, build) for name, build in (
        ('docs', build_docs), ('release notes', build_releasenotes))
        if args.only in (None, name.replace(' ', ''))]
    built = []
    try:
        bindir = ensure_venv(workdir, log)
        for name, build in builds:
            say('building the %s' % name)
            built.append('%s %s' % (name, build(bindir, workdir, log)))
    except BuildError as e:
        print('docs_build: error: %s' % e, file=sys.stderr)
        return 1
    say('built without a warning in %.0f s: %s' % (
        time.monotonic() - started, '; '.join(built)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
