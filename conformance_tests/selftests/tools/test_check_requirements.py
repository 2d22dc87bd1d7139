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

"""tools/check_requirements.py: an import no requirement names is found,
where its file runs."""

import os

import fixtures
import testtools

from conformance_tests.tools import check_requirements

SETUP_CFG = """[metadata]
name = x

[extras]
cloud =
    nova
bench =
    matplotlib
"""

DISTRIBUTIONS = {'requests': ['requests'], 'nova': ['nova'],
                 'matplotlib': ['matplotlib'], 'yaml': ['PyYAML'],
                 'oslo_utils': ['oslo.utils']}


class ProblemsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self._write('setup.cfg', SETUP_CFG)
        self._write('requirements.txt', 'PyYAML>=6.0  # comment\n')
        self._write('test-requirements.txt', '\n')

    def _write(self, name, text):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)

    def _module(self, relpath, text):
        self._write(os.path.join('conformance_tests', relpath), text)

    def _problems(self):
        return check_requirements.problems(self.root, DISTRIBUTIONS)

    def test_plugin_import_missing_from_requirements(self):
        self._module('preflight/http.py', 'import os\nimport requests\n'
                     'import yaml\nfrom conformance_tests import x\n')
        self.assertEqual(
            ['conformance_tests/preflight/http.py imports requests: name '
             'requests in requirements.txt'], self._problems())

    def test_named_requirement_passes_whatever_its_spelling(self):
        self._write('requirements.txt', 'oslo_utils>=7.1\n')
        self._module('api/test_a.py', 'from oslo_utils import uuidutils\n')
        self.assertEqual([], self._problems())

    def test_cloud_module_may_use_the_cloud_extra_only(self):
        self._module('cloud/services/nova/app.py', 'import nova.compute\n')
        self._module('cmd/run.py', 'import nova\n')
        self.assertEqual(
            ['conformance_tests/cmd/run.py imports nova: name nova in '
             'requirements.txt'], self._problems())

    def test_optional_import_is_not_judged(self):
        self._module('common/a.py', 'def f():\n    try:\n        import '
                     'matplotlib\n    except ImportError:\n        '
                     'return None\n')
        self.assertEqual([], self._problems())

    def test_guarded_by_another_exception_is_judged(self):
        self._module('common/a.py', 'try:\n    import matplotlib\n'
                     'except ValueError:\n    pass\n')
        self.assertEqual(1, len(self._problems()))

    def test_unknown_module_is_named(self):
        self._module('common/a.py', 'import nowhere\n')
        self.assertIn('which no installed distribution provides',
                      self._problems()[0])

    def test_bench_plot_uses_the_bench_extra(self):
        self._module('bench/plot.py', 'import matplotlib\n')
        self.assertEqual([], self._problems())
