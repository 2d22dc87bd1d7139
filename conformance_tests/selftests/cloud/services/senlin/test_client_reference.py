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

"""cloud/services/senlin/client_reference.py, no cloud started: the
reference of python-senlinclient's formatters, and the `openstack`
launcher senlin's descriptor names only in the spec-reference profile."""

import os
import subprocess
import sys
import types

import fixtures
import testtools

from conformance_tests.cloud import mutants
from conformance_tests.cloud.services import senlin
from conformance_tests.cloud.services.senlin import client_reference


def _ctx(service_dir, **settings):
    return types.SimpleNamespace(service_dir=service_dir,
                                 settings=settings)


class ClientReferenceTest(testtools.TestCase):

    def test_plain_functions_become_columns(self):
        from cliff import columns
        from osc_lib import utils
        wrapped = client_reference._columns({
            'spec': lambda v: 'S:%s' % v,
            'kept': columns.FormattableColumn})
        self.assertTrue(issubclass(wrapped['spec'],
                                   columns.FormattableColumn))
        self.assertIs(columns.FormattableColumn, wrapped['kept'])
        # osc-lib >= 4 takes the wrapped formatter; the plain one it refuses
        row = utils.get_dict_properties({'spec': 1}, ['spec'],
                                        formatters=wrapped)
        self.assertEqual('S:1', row[0].human_readable())
        self.assertEqual(1, row[0].machine_readable())

    def test_reference_patches_the_policy_module_only(self):
        from senlinclient.v1 import policy
        kept = policy.utils
        self.addCleanup(setattr, policy, 'utils', kept)
        client_reference.senlinclient_formatter_columns()
        client_reference.senlinclient_formatter_columns()   # idempotent
        self.assertIsInstance(policy.utils, client_reference._Utils)
        self.assertIs(kept.find_resource, policy.utils.find_resource)

    def test_registered_for_the_client_not_a_service(self):
        ref = [r for r in mutants.all_references()
               if r.name == 'senlinclient-formatter-columns']
        self.assertEqual(1, len(ref))
        # never applied in a cloud's process: no service has that name
        from conformance_tests.cloud import services
        self.assertNotIn(ref[0].service,
                         [s.name for s in services.all()])

    def test_launcher_only_in_the_spec_reference_profile(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        plain = senlin.SERVICE.tempest_conf(_ctx(workdir))
        self.assertNotIn('openstack_cli', plain['conformance'])
        self.assertEqual([], os.listdir(workdir))
        ref = senlin.SERVICE.tempest_conf(_ctx(workdir,
                                               spec_reference=True))
        path = ref['conformance']['openstack_cli']
        self.assertTrue(path.startswith(workdir))
        self.assertTrue(os.access(path, os.X_OK))
        done = subprocess.run([path, '--version'], capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(0, done.returncode, done.stderr[-300:])
        self.assertIn('openstack', done.stdout + done.stderr)

    def test_launcher_runs_this_python(self):
        self.assertTrue(client_reference.launcher_text().startswith(
            '#!%s\n' % sys.executable))
