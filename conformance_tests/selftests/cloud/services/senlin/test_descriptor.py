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
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        from conformance_tests.selftests.cloud import (
            test_client_files as test_cloud_files)
        from conformance_tests.cloud import services
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


class SenlinPollTest(testtools.TestCase):
    """senlin_app.poll_sooner on senlin's real classes: only the two
    polls shrink, what they wait for and their timeouts stay senlin's."""

    def setUp(self):
        super().setUp()
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
