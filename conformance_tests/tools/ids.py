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

"""Idempotent ids of every conformance test, from Python and from YAML."""

import ast
import os

from conformance_tests.common import gabbi_files
from conformance_tests.common import paths

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python_ids():
    """{id: 'file:line'} of @decorators.idempotent_id in api/ and scenario/."""
    found = {}
    for sub in ('api', 'scenario'):
        for root, _, files in os.walk(os.path.join(_PACKAGE, sub)):
            for name in files:
                if not name.endswith('.py'):
                    continue
                path = os.path.join(root, name)
                with open(path) as f:
                    tree = ast.parse(f.read(), path)
                for node in ast.walk(tree):
                    if (isinstance(node, ast.Call) and getattr(
                            node.func, 'attr', None) == 'idempotent_id'
                            and node.args and isinstance(
                                node.args[0], ast.Constant)):
                        found.setdefault(node.args[0].value, []).append(
                            '%s:%d' % (os.path.relpath(path), node.lineno))
    return found


def yaml_ids():
    """{id: [path, ...]} of every gabbi file's meta id."""
    found = {}
    root = paths.data_path('gabbits')
    for service in sorted(os.listdir(root)):
        if not os.path.isdir(os.path.join(root, service)):
            continue
        for path in gabbi_files.test_files(service):
            meta = gabbi_files.load(path)['meta']
            found.setdefault(str(meta['id']), []).append(
                os.path.relpath(path))
    return found
