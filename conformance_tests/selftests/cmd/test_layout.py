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

"""cmd/ is one module per command, and a run flows down from it: no
command imports another, and nothing below cmd/ imports a command
(doc/layout.md, "How a run flows")."""

import ast
import os

import fixtures
import testtools

from conformance_tests.cmd import main

PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
CMD = os.path.join(PACKAGE, 'cmd')
# What every command may share: none is a command.
SHARED = {'base', 'errors', 'options'}


def imported_modules(path):
    """Every conformance_tests module ``path`` imports, dotted."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update('%s.%s' % (node.module, a.name)
                         for a in node.names)
    return {m for m in found if m.startswith('conformance_tests.')}


def cmd_modules_of(modules):
    prefix = 'conformance_tests.cmd.'
    return {m[len(prefix):].split('.')[0] for m in modules
            if m.startswith(prefix)}


class LayoutTest(testtools.TestCase):

    def test_every_command_has_its_module_and_main_lists_them(self):
        modules = {f[:-3] for f in os.listdir(CMD)
                   if f.endswith('.py') and f != '__init__.py'}
        self.assertLessEqual(set(main.COMMANDS), modules)
        for name in main.COMMANDS:
            with open(os.path.join(CMD, name + '.py')) as f:
                text = f.read()
            self.assertIn('\ndef add_parser(sub):', text, name)
            self.assertIn('(base.Command):\n    name = ', text, name)

    def test_no_command_imports_another(self):
        checked = 0
        for name in main.COMMANDS:
            path = os.path.join(CMD, name + '.py')
            others = cmd_modules_of(imported_modules(path)) - SHARED
            self.assertEqual(set(), others,
                             'cmd/%s.py imports other commands' % name)
            checked += 1
        self.assertGreater(checked, 10)

    def test_nothing_below_cmd_imports_a_command(self):
        offenders = []
        checked = 0
        for root, dirs, files in os.walk(PACKAGE):
            rel = os.path.relpath(root, PACKAGE)
            if rel.split(os.sep)[0] in ('cmd', 'selftests'):
                continue
            for f in files:
                if f.endswith('.py'):
                    checked += 1
                    path = os.path.join(root, f)
                    if cmd_modules_of(imported_modules(path)):
                        offenders.append(os.path.relpath(path, PACKAGE))
        self.assertGreater(checked, 100)
        self.assertEqual([], offenders)

    def test_the_check_sees_an_import_of_a_command(self):
        # The control: a module that imports a command is found.
        path = self.useFixture(fixtures.TempDir()).path
        source = os.path.join(path, 'm.py')
        with open(source, 'w') as f:
            f.write('from conformance_tests.cmd import run\n'
                    'from conformance_tests.cmd.errors import CommandError\n')
        self.assertEqual({'run', 'errors'},
                         cmd_modules_of(imported_modules(source)))
