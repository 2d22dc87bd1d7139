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

"""Which names an interrupted run gave to what it made.

Two makers name things for a run:

- the suite itself, with [conformance] resource_prefix (``P``): Tempest's
  ``rand_name`` gives ``P-<what>-<digits>`` (servers, groups, flavors,
  users; nova appends ``-<n>`` to multi-create names), the gabbi runner
  and the topology builder give ``P-<8 hex>-<what>`` (server groups,
  providers) and ``CUSTOM_P_<8 HEX>_<WHAT>`` (resource classes, traits);
- Tempest's dynamic credentials, one project per test class,
  ``<dynamic prefix>-<TestClass>-<digits>``, and users named after the
  project: ``<project>-project`` plus ``-admin`` or ``-<role>``. Tempest 47
  uses the fixed prefix ``tempest`` here (credentials_factory), whatever
  [DEFAULT] resource_name_prefix says; a later Tempest may use that
  option, so both are accepted. The class must be one of this plugin's.

The exact shapes matter: the embedded cloud's zones are called
``conformance-zone`` and ``conformance-cell2``, which start with the
prefix but were made by the launcher (an operator), not by a run.
"""

import ast
import os
import re

# Packages of this plugin that define test classes (dynamic credentials
# are named after them).
TEST_PACKAGES = ('api', 'scenario')
DYNAMIC_CREDS_PREFIX = 'tempest'
# Whatever their names, these are never a run's: the cloud's admin and
# the services' own project.
ALWAYS_KEPT = ('admin', 'service')


class RunNames(object):
    def __init__(self, prefix, test_classes, dynamic_prefixes=(),
                 kept=()):
        if not prefix:
            raise ValueError('[conformance] resource_prefix is empty: set '
                             'it to the prefix the run used')
        p = re.escape(prefix)
        self.suite = re.compile(r'^%s-(?:[0-9a-f]{8}-.+|.+-\d+)$' % p)
        custom = re.sub(r'[^A-Z0-9_]', '_', prefix.upper())
        self.custom = re.compile(r'^CUSTOM_%s_[0-9A-F]{8}_[A-Z0-9_]+$' %
                                 re.escape(custom))
        makers = sorted({DYNAMIC_CREDS_PREFIX} | set(
            d for d in dynamic_prefixes if d))
        classes = sorted(set(test_classes))
        root = r'^(?:%s)-(?:%s)-\d+' % (
            '|'.join(re.escape(m) for m in makers),
            '|'.join(re.escape(c) for c in classes) or r'(?!)')
        self.dynamic_project = re.compile(root + '$')
        self.dynamic_user = re.compile(
            root + r'-(?:project|domain|system)(?:-[^-].*)?$')
        self.kept = set(ALWAYS_KEPT) | set(k for k in kept if k)

    def made(self, name):
        """A name the suite gave (servers, groups, flavors, aggregates,
        providers, users and projects it creates)."""
        return bool(name) and name not in self.kept and bool(
            self.suite.match(name))

    def made_custom(self, name):
        """A resource class or trait a topology made."""
        return bool(self.custom.match(name or ''))

    def project(self, name):
        return self.made(name) or (
            name not in self.kept and bool(self.dynamic_project.match(
                name or '')))

    def user(self, name):
        return self.made(name) or (
            name not in self.kept and bool(self.dynamic_user.match(
                name or '')))


def test_class_names(package_dir=None):
    """Every class defined in this plugin's test packages.

    Read from the source (no import), so a test module another person is
    editing cannot stop a cleanup; base classes and mixins come along,
    which is harmless: they only widen the set of this plugin's names.
    """
    package_dir = package_dir or os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    names = set()
    for sub in TEST_PACKAGES:
        for root, _dirs, files in os.walk(os.path.join(package_dir, sub)):
            for filename in files:
                if not filename.endswith('.py'):
                    continue
                names.update(_classes_in(os.path.join(root, filename)))
    return names


def _classes_in(path):
    try:
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return set()
    return {node.name for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)}
