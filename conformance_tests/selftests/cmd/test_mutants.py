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

"""`conformance mutants --parallel N`: slots of their own, order kept."""

import argparse
import threading
import time

import fixtures
import testtools

from conformance_tests.cmd import mutants


class _Mutant(object):
    def __init__(self, name):
        self.name = name
        self.rule = 'rule of %s' % name
        self.profile = None
        self.wrong_reason = False


class ParallelMutantsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.common.ui.say', lambda message: None))
        self.lock = threading.Lock()
        self.busy = {}       # port base -> mutant running there now
        self.clashes = []
        self.seen = []
        self.forkers = _Forkers()
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.launcher.start_zygotes',
            self.forkers.start))
        self.workers = []
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.warm_workers.WarmWorkers',
            lambda directory: self.workers.append(
                _WarmWorkers(directory)) or self.workers[-1]))
        self.inventories = []   # (port base, inventory process) a mutant
        self.warm = []
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.inventory.forker.Forker',
            lambda: self.warm.append(_Warm()) or self.warm[-1]))

    def _fake_run_mutant(self, args, scope, mutant, mutant_dir, port_base,
                         listing=None, forkers=None, release=None,
                         inventory_process=None, workers=None):
        self.assertIs(self.forkers, forkers)
        self.assertEqual([workers], self.workers)
        with self.lock:
            self.inventories.append((port_base, inventory_process))
            if port_base in self.busy:
                self.clashes.append((mutant.name, self.busy[port_base]))
            self.busy[port_base] = mutant.name
            self.seen.append((mutant_dir, port_base))
        time.sleep(0.02)
        with self.lock:
            del self.busy[port_base]
        return {'name': mutant.name, 'killed': True, 'killed_by': ['x'],
                'errors': [], 'duration_s': 0.0}

    def _run(self, parallel, count, inventory=False):
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.mutants._run_mutant',
            self._fake_run_mutant))
        args = argparse.Namespace(parallel=parallel, port_base=19100,
                                  inventory=inventory)
        chosen = [_Mutant('m%d' % k) for k in range(count)]
        return mutants._run_mutants(args, None, chosen, '/w')

    def test_two_slots_never_share_ports_and_order_is_kept(self):
        outcome = self._run(2, 6)
        self.assertEqual(['m%d' % k for k in range(6)],
                         [m['name'] for m in outcome])
        self.assertEqual([], self.clashes)
        self.assertEqual({19100, 19100 + mutants.SLOT_PORTS},
                         {port for _, port in self.seen})
        self.assertEqual({'/w/mutant-cloud', '/w/mutant-cloud-1'},
                         {d for d, _ in self.seen})

    def test_one_slot_is_todays_serial_run(self):
        self._run(1, 3)
        self.assertEqual({('/w/mutant-cloud', 19100)}, set(self.seen))

    def test_every_mutant_cloud_forks_from_one_set_of_zygotes(self):
        self._run(2, 4)  # _fake_run_mutant checks it got them
        self.assertEqual(['/w/zygotes'], self.forkers.started)
        self.assertTrue(self.forkers.closed)

    def test_every_mutants_workers_fork_from_one_warm_process(self):
        self._run(2, 4)  # _fake_run_mutant checks it got this one
        self.assertEqual(['/w/zygotes'], [w.directory for w in self.workers])
        self.assertTrue(self.workers[0].closed)

    def test_each_slot_takes_its_inventories_from_a_warm_process(self):
        self._run(2, 6, inventory=True)
        self.assertEqual(2, len(self.warm))
        by_slot = {}
        for port_base, warm in self.inventories:
            by_slot.setdefault(port_base, set()).add(warm)
        # one warm process a slot, never shared by two slots
        self.assertEqual([1, 1], [len(w) for w in by_slot.values()])
        self.assertEqual(set(self.warm), set.union(*by_slot.values()))
        self.assertTrue(all(w.closed for w in self.warm))
        self.assertTrue(self.workers[0].closed)

    def test_without_inventory_no_warm_process(self):
        self._run(2, 4)
        self.assertEqual([], self.warm)
        self.assertEqual({None}, {w for _, w in self.inventories})

    def test_after_an_error_no_mutant_starts(self):
        def boom(args, scope, mutant, mutant_dir, port_base, listing=None,
                 forkers=None, release=None, inventory_process=None,
                 workers=None):
            self.seen.append(mutant.name)
            raise mutants.CommandError('mutant %s: broke' % mutant.name)
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.mutants._run_mutant', boom))
        args = argparse.Namespace(parallel=2, port_base=19100,
                                  inventory=True)
        chosen = [_Mutant('m%d' % k) for k in range(6)]
        self.assertRaises(mutants.CommandError, mutants._run_mutants, args,
                          None, chosen, '/w')
        self.assertLessEqual(len(self.seen), 2)
        self.assertTrue(self.forkers.closed)
        self.assertTrue(all(w.closed for w in self.warm))
        self.assertTrue(self.workers[0].closed)

    def test_default_is_one_cloud_per_core(self):
        self.useFixture(fixtures.MonkeyPatch('os.cpu_count', lambda: 2))
        self.assertEqual(2, mutants.default_parallel())
        self.useFixture(fixtures.MonkeyPatch('os.cpu_count', lambda: None))
        self.assertEqual(1, mutants.default_parallel())


class _WarmWorkers(object):
    """Stands in for runner/warm_workers.WarmWorkers."""

    def __init__(self, directory):
        self.directory = directory
        self.closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.closed = True


class _Warm(object):
    """Stands in for inventory/forker.Forker: records its closing."""

    closed = False

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Forkers(object):
    """Stands in for launcher.start_zygotes: records its life."""

    def __init__(self):
        self.started = []
        self.closed = False

    def start(self, log_dir):
        self.started.append(log_dir)
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.closed = True
