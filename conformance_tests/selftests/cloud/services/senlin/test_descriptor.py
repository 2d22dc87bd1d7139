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

"""cloud/services/senlin.py and mutants/senlin.py, no service started:
senlin's config, the DRS compute it gives nova, and the registered
mutants and references naming seed-002 capabilities."""

import configparser
import os

import fixtures
import testtools

from conformance_tests.cloud import mutants
from conformance_tests.cloud.services import nova
from conformance_tests.cloud.services import senlin
from conformance_tests.report import guidelines

USER = {'username': 'senlin', 'password': 'not-a-real-one'}


class SenlinDescriptorTest(testtools.TestCase):

    def test_config(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        path = senlin.senlin_conf(workdir, 'http://127.0.0.1:1/v3', USER,
                                  'RegionOne')
        conf = configparser.ConfigParser(interpolation=None)
        conf.read(path)
        # every RPC in the one process; the schema in memory
        self.assertEqual('fake://', conf['DEFAULT']['transport_url'])
        self.assertEqual('sqlite://', conf['database']['connection'])
        self.assertEqual(USER['username'],
                         conf['authentication']['service_username'])
        self.assertEqual(0o600, os.stat(path).st_mode & 0o777)

    def test_drs_host_outside_the_seed_zones(self):
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        host, cell = senlin.SERVICE.contributions()[nova.EXTRA_COMPUTES][0]
        self.assertIn('drs', host)
        zoned = {h for hosts in compute_layout.ZONES.values()
                 for h in hosts}
        self.assertNotIn(host, zoned)
        self.assertNotIn(host, dict(compute_layout.HOSTS))

    def test_two_drs_hosts_on_the_spec_reference_profile(self):
        from conformance_tests.cloud import profiles
        hosts = [host for host, _ in senlin.SERVICE.contributions(
            profiles.settings('spec-reference'))[nova.EXTRA_COMPUTES]]
        self.assertEqual([senlin.DRS_HOST, senlin.SECOND_DRS_HOST], hosts)
        self.assertTrue(all('drs' in host for host in hosts))

    def test_only_a_near_miss_without_the_setting(self):
        # "dr" but not "drs": senlin's pattern .*drs* takes it, the
        # seed's "contains drs" does not.
        from conformance_tests.cloud import profiles
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        off = profiles.settings('no-drs-hypervisor')
        [(host, cell)] = senlin.SERVICE.contributions(off)[
            nova.EXTRA_COMPUTES]
        self.assertIn('dr', host)
        self.assertNotIn('drs', host)
        self.assertNotIn(host, dict(compute_layout.HOSTS))
        self.assertIn(nova.EXTRA_COMPUTES, senlin.SERVICE.contributions(
            profiles.settings('default')))

    def test_mutants_and_references_name_seed_002_capabilities(self):
        known = {c['id'] for c in guidelines.load_all()}
        mine = [m for m in mutants.all_mutants() if m.service == 'senlin']
        self.assertGreaterEqual(len(mine), 7)
        for m in mine:
            self.assertTrue(set(m.targets) <= known, m.name)
        refs = [r for r in mutants.all_references()
                if r.service == 'senlin']
        self.assertTrue(refs)
        by_id = {c['id']: c for c in guidelines.load_all()}
        for r in refs:
            for cap in r.capabilities:
                self.assertTrue(by_id[cap]['expected_fail'], cap)

    def test_nova_starts_the_drs_host_apart_from_its_layout(self):
        from conformance_tests.cloud import services
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        from conformance_tests.selftests.cloud import (
            test_client_files as test_cloud_files)
        # Other services contributing computes (blazar) are left out:
        # this test checks senlin's contribution alone.
        config = nova.nova_config(test_cloud_files.fake_launch_context(
            services.start_order([
                s for s in services.all() if s is senlin.SERVICE
                or nova.EXTRA_COMPUTES not in s.contributions()])))
        self.assertEqual([list(h) for h in compute_layout.HOSTS],
                         config['computes'])
        self.assertEqual([[senlin.DRS_HOST, senlin.DRS_CELL]],
                         config['extra_computes'])


# Set in the fresh interpreter a senlin test reruns itself in.
_CHILD = 'CONFORMANCE_SENLIN_SELFTEST_CHILD'


def _senlin_importable():
    """Whether senlin's modules import in this process: senlin registers
    its options (``host`` among them) in oslo.config's global CONF, and a
    self-test that imported another service's first makes that fail."""
    from oslo_config import cfg
    try:
        from senlin.drivers.os import nova_v2  # noqa: F401
    except cfg.DuplicateOptError:
        if os.environ.get(_CHILD):
            raise
        return False
    return True


class SenlinPollTest(testtools.TestCase):
    """senlin_app.poll_sooner on senlin's real classes: only the two
    polls shrink, what they wait for and their timeouts stay senlin's.
    Where another service's options already fill the global CONF, each
    test reruns alone in a fresh interpreter and passes only if it
    passes there."""

    def setUp(self):
        super().setUp()
        if not _senlin_importable():
            setattr(self, self._testMethodName, self._in_fresh_process)
            return
        from senlin.drivers.os import nova_v2
        from senlin.engine.actions import cluster_action
        self.calls, self.slept = [], []
        # Restored after the test, with whatever poll_sooner wrapped.
        self.useFixture(fixtures.MonkeyPatch(
            'senlin.drivers.os.nova_v2.NovaClient.wait_for_server',
            lambda client, *args: self.calls.append(args)))
        self.useFixture(fixtures.MonkeyPatch(
            'senlin.engine.actions.cluster_action.ClusterAction.'
            '_wait_for_dependents', self._fake_wait_for_dependents))
        self.useFixture(fixtures.MonkeyPatch('eventlet.sleep',
                                             self.slept.append))
        from conformance_tests.cloud.services.senlin import app as senlin_app
        senlin_app.poll_sooner(0.5)
        self.client = nova_v2.NovaClient.__new__(nova_v2.NovaClient)
        # senlin's Action.__new__ wants a target, an action and a context
        self.action = object.__new__(cluster_action.ClusterAction)

    def _in_fresh_process(self):
        import subprocess
        import sys

        import conformance_tests
        root = os.path.dirname(os.path.dirname(conformance_tests.__file__))
        done = subprocess.run(
            [sys.executable, '-m', 'testtools.run', self.id()], cwd=root,
            env=dict(os.environ, **{_CHILD: '1'}), capture_output=True,
            text=True, timeout=300)
        self.assertEqual(0, done.returncode, '%s in a fresh interpreter:\n'
                         '%s%s' % (self.id(), done.stdout, done.stderr))

    @staticmethod
    def _fake_wait_for_dependents(action, lifecycle_hook_timeout=None):
        action._sleep(3)  # senlin's poll between two status reads
        return 'OK', lifecycle_hook_timeout

    def test_server_wait_polls_nova_sooner_with_senlin_timeout(self):
        self.client.wait_for_server('srv')
        self.client.wait_for_server('srv', 'SHUTOFF', ['ERROR'], 2, 60)
        self.assertEqual([('srv', 'ACTIVE', None, 0.5, None),
                          ('srv', 'SHUTOFF', ['ERROR'], 0.5, 60)],
                         self.calls)

    def test_cluster_action_rereads_dependents_sooner(self):
        self.assertEqual(('OK', 30), self.action._wait_for_dependents(30))
        self.assertEqual([0.5], self.slept)
        # Its own pauses (pause_time, grace periods) keep their length.
        self.assertNotIn('_sleep', vars(self.action))
        self.action._sleep(3)
        self.assertEqual([0.5, 3], self.slept)


class SdkFieldReferencesTest(testtools.TestCase):
    """The two spec references over senlin's nova driver, on
    openstacksdk's real resources: the fields senlin 16 reads are missing
    from them (the upstream defect), and each reference gives back only
    that field. The driver class is a stand-in with senlin's two method
    signatures: importing senlin's own registers senlin's options in
    oslo.config's global CONF, which other self-tests' services share."""

    def setUp(self):
        super().setUp()
        test = self

        class NovaClient(object):
            def server_group_find(self, name_or_id, ignore_missing=True):
                return test.group

            def hypervisor_list(self, **query):
                return iter(test.hypervisors)

        from conformance_tests.cloud.services.senlin import mutants as sm
        self.mutants = sm
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.services.senlin.mutants.'
            '_nova_client_class', lambda: NovaClient))
        self.client = NovaClient()

    def test_found_group_gets_policies_from_policy(self):
        from openstack.compute.v2 import server_group
        # as openstacksdk reads a group at 2.64: policy, no policies
        self.group = server_group.ServerGroup(id='g1', policy='affinity')
        self.assertIsNone(self.group.policies)
        self.mutants.found_group_policy_read()
        self.assertEqual(['affinity'],
                         self.client.server_group_find('g1').policies)
        # seed 000's nested policy (nova's spec reference) at 2.64
        self.group = server_group.ServerGroup(
            id='g2', policy={'name': 'anti-affinity', 'rules': {}})
        self.assertEqual(['anti-affinity'],
                         self.client.server_group_find('g2').policies)
        self.group = None
        self.assertIsNone(self.client.server_group_find('nope'))

    def test_hypervisors_get_hypervisor_hostname_back(self):
        from openstack.compute.v2 import hypervisor
        hv = hypervisor.Hypervisor(id='h1', name='vsphere-drs-1')
        self.hypervisors = [hv]
        # senlin 16's read, on today's SDK
        self.assertRaises(AttributeError, getattr, hv,
                          'hypervisor_hostname')
        self.mutants.drs_hypervisor_hostname_read()
        [seen] = self.client.hypervisor_list()
        self.assertEqual('vsphere-drs-1', seen.hypervisor_hostname)
        self.assertEqual('h1', seen.id)

    def test_hidden_hypervisors_mutant_lists_none(self):
        self.hypervisors = [object()]
        self.mutants.drs_hypervisors_hidden()
        self.assertEqual([], list(self.client.hypervisor_list()))
