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

"""pep8 check: every module the package imports is a requirement it names.

A plugin that imports what only arrives through Tempest breaks the day
Tempest drops it, and a user who installs the wheel into another venv
cannot tell from requirements.txt what it needs. Each file is judged
against what is installed where it runs:

- the plugin and the CLI (everything not listed below): requirements.txt;
- the embedded cloud's modules, which run inside the services' processes
  (``cloud/services/``, the pool and TLS helpers): the ``cloud`` extra of
  setup.cfg, plus what its services declare (a mutant patches nova with
  nova's own SQLAlchemy, so nova's requirements are its to import);
- ``bench/plot.py``: the ``bench`` extra;
- ``tools/``: test-requirements.txt too; the self-tests, which run in
  tox's venv with the ``cloud`` extra, the cloud's lists as well.

An import inside ``try: ... except ImportError`` is optional and not
judged. A module of the standard library or of this package never is.
"""

import ast
import configparser
import importlib.metadata
import os
import re
import sys

PACKAGE = 'conformance_tests'

# Files run somewhere else than the package's venv, with why.
ELSEWHERE = {
    'packaged/setup_in_root.py': 'runs with the packaged root\'s Python, '
                                 'on Debian\'s packages',
}

# Imports reached only when the dependency that brings them is in use.
CONDITIONAL = {
    ('common/gabbi_http.py', 'httpx'): 'reached only with a gabbi 3 client '
                                       '(gabbi 3 requires httpx; 2.4 does '
                                       'not use it)',
}

CLOUD_FILES = ('cloud/services/', 'cloud/sqlite_pool.py', 'cloud/tls.py')


def canonical(name):
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r'[-_.]+', '-', name).lower()


def requirement_names(lines):
    """The distribution names of requirement lines (comments, options and
    markers left out)."""
    names = set()
    for line in lines:
        line = line.split('#', 1)[0].strip()
        if not line or line.startswith('-'):
            continue
        found = re.match(r'[A-Za-z0-9][A-Za-z0-9._-]*', line)
        if found:
            names.add(canonical(found.group(0)))
    return names


def _read_lines(root, name):
    with open(os.path.join(root, name)) as f:
        return f.read().splitlines()


def extras(root):
    """{extra: names} from setup.cfg's [extras]."""
    parser = configparser.ConfigParser()
    parser.read(os.path.join(root, 'setup.cfg'))
    if not parser.has_section('extras'):
        return {}
    return {extra: requirement_names(parser.get('extras', extra).splitlines())
            for extra in parser.options('extras')}


def declared_by(names):
    """The distributions ``names`` require (one level), as installed."""
    found = set()
    for name in names:
        try:
            requires = importlib.metadata.requires(name) or ()
        except importlib.metadata.PackageNotFoundError:
            continue
        found |= requirement_names(r for r in requires if 'extra ==' not in r)
    return found


def _optional(node, parents):
    """Whether ``node`` sits in a try whose handlers catch ImportError."""
    child = node
    for parent in parents(node):
        if isinstance(parent, ast.Try) and child in parent.body:
            for handler in parent.handlers:
                caught = ast.unparse(handler.type) if handler.type else ''
                if 'ImportError' in caught or 'ModuleNotFoundError' in caught:
                    return True
        child = parent
    return False


def imports(source):
    """The top-level module names ``source`` imports, optional ones
    (inside try/except ImportError) left out."""
    tree = ast.parse(source)
    parent_of = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parent_of[child] = parent

    def parents(node):
        while node in parent_of:
            node = parent_of[node]
            yield node

    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules = [node.module]
        else:
            continue
        if not _optional(node, parents):
            names |= {m.split('.')[0] for m in modules}
    return names


# Where a file runs, the first match deciding: (path prefixes under the
# package, the lists it may import from beyond requirements.txt, where a
# missing requirement is to be named).
TESTS = 'test-requirements.txt (or requirements.txt)'
PLACES = (
    (CLOUD_FILES, ('cloud',), 'setup.cfg\'s cloud extra'),
    (('bench/plot.py',), ('bench',), 'setup.cfg\'s bench extra'),
    (('selftests/',), ('test', 'cloud'), TESTS),
    (('tools/',), ('test',), TESTS),
)


def allowed_for(relpath, lists):
    """(the distribution names a file at ``relpath`` under the package
    may import from, where a missing one is to be named), given
    ``lists`` (requirements, test, cloud, bench)."""
    allowed = set(lists['requirements'])
    for prefixes, more, where in PLACES:
        if relpath.startswith(prefixes):
            for name in more:
                allowed |= lists[name]
            return allowed, where
    return allowed, 'requirements.txt'


def problems(root='.', distributions=None):
    """One line per import that no requirement of its file names."""
    distributions = (importlib.metadata.packages_distributions()
                     if distributions is None else distributions)
    extra_names = extras(root)
    lists = {
        'requirements': requirement_names(_read_lines(root,
                                                      'requirements.txt')),
        'test': requirement_names(_read_lines(root,
                                              'test-requirements.txt')),
        'cloud': extra_names.get('cloud', set()) | declared_by(
            extra_names.get('cloud', ())),
        'bench': extra_names.get('bench', set()),
    }
    found = []
    top = os.path.join(root, PACKAGE)
    for directory, _, files in sorted(os.walk(top)):
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(directory, name)
            relpath = os.path.relpath(path, top).replace(os.sep, '/')
            if relpath in ELSEWHERE:
                continue
            with open(path) as f:
                modules = imports(f.read())
            allowed, where = allowed_for(relpath, lists)
            for module in sorted(modules):
                if (module == PACKAGE or module in sys.stdlib_module_names
                        or (relpath, module) in CONDITIONAL):
                    continue
                dists = {canonical(d) for d in distributions.get(module, ())}
                if not dists:
                    found.append('%s/%s imports %s, which no installed '
                                 'distribution provides' % (
                                     PACKAGE, relpath, module))
                elif not dists & allowed:
                    found.append('%s/%s imports %s: name %s in %s' % (
                        PACKAGE, relpath, module, ' or '.join(sorted(dists)),
                        where))
    return found


def main():
    found = problems()
    for line in found:
        print(line)
    print('check_requirements: %s' % (
        '%d import(s) without a requirement' % len(found) if found
        else 'every import is a named requirement'))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
