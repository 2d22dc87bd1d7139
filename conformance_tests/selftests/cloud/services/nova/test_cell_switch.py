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

"""cloud/services/nova/cell_switch.py with real threads.

The cells object stands in for nova's CellDatabases fixture: the switch
reads and writes only its context managers (any objects) and calls the
real target_cell it is given.
"""

import contextlib
import threading
import time
import types

import testtools

from conformance_tests.cloud.services.nova import cell_switch


class FakeCells(object):
    def __init__(self):
        self.cell1, self.cell2 = object(), object()
        self._ctxt_mgrs = {'db1': self.cell1, 'db2': self.cell2}
        self._default_ctxt_mgr = self.cell1
        self._last_ctxt_mgr = self.cell2   # as the fixture leaves it


def mapping(connection):
    return types.SimpleNamespace(database_connection=connection)


class CellSwitchTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.cells = FakeCells()
        self.seen = []           # the global as each block body saw it

        @contextlib.contextmanager
        def real_target_cell(context, cell_mapping):
            yield (context, cell_mapping)

        self.switch = cell_switch.CellSwitch(self.cells, real_target_cell)

    def _block(self, connection, hold_s=0.0, each=None):
        with self.switch.target_cell('ctx', mapping(connection)) as got:
            self.assertEqual(('ctx', connection), (got[0],
                                                   got[1].database_connection))
            start = time.monotonic()
            while True:
                # The global must stay this block's cell while it runs.
                self.seen.append((connection, self.cells._last_ctxt_mgr))
                if each:
                    each()
                if time.monotonic() - start >= hold_s:
                    break
                time.sleep(0.001)

    def _expected(self, connection):
        return self.cells._ctxt_mgrs[connection]

    def test_a_block_sees_its_cell_and_the_default_is_back_after(self):
        self._block('db2')
        self.assertEqual([('db2', self.cells.cell2)], self.seen)
        self.assertIs(self.cells.cell1, self.cells._last_ctxt_mgr)

    def test_an_error_inside_still_puts_the_default_back(self):
        def boom():
            raise ValueError('inside')
        self.assertRaises(ValueError, self._block, 'db2', each=boom)
        self.assertIs(self.cells.cell1, self.cells._last_ctxt_mgr)
        # and the switch is free again
        self._block('db1')

    def test_nested_blocks_enter_at_once_and_restore_the_outer_cell(self):
        def nested():
            with self.switch.target_cell('ctx', mapping('db1')):
                self.seen.append(('inner', self.cells._last_ctxt_mgr))
            with self.switch.target_cell('ctx', mapping('db2')):
                self.seen.append(('same', self.cells._last_ctxt_mgr))
        self._block('db2', each=nested)
        self.assertEqual(
            [('db2', self.cells.cell2), ('inner', self.cells.cell1),
             ('same', self.cells.cell2)], self.seen)

    def test_none_targets_the_default_cell(self):
        with self.switch.target_cell('ctx', None):
            self.assertIs(self.cells.cell1, self.cells._last_ctxt_mgr)

    def test_many_threads_in_two_cells_never_give_up_nor_mix(self):
        # The fixture's own switch gave up after three tries under this
        # kind of contention ("generator didn't yield"); here every block
        # runs, and each sees only its own cell while it runs.
        errors = []

        def worker(connection):
            try:
                for _ in range(30):
                    self._block(connection, hold_s=0.002)
            except Exception as e:  # noqa: B902 - reported below
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(c,), daemon=True)
                   for c in ('db1', 'db2') * 4]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual([], errors)
        self.assertFalse(any(t.is_alive() for t in threads),
                         'a block never got its cell')
        wrong = [(c, m) for c, m in self.seen if m is not self._expected(c)]
        self.assertEqual([], wrong)
        self.assertEqual({'db1', 'db2'}, {c for c, _ in self.seen})

    def test_a_waiting_cell_goes_before_new_blocks_of_the_current_one(self):
        # db1 is held; a thread waits for db2; a newcomer for db1 lets it
        # go first (within DEFER_S), so db2 runs before the newcomer.
        order, held, release = [], threading.Event(), threading.Event()

        def holder():
            with self.switch.target_cell('ctx', mapping('db1')):
                held.set()
                release.wait(30)

        def enter(connection, name):
            with self.switch.target_cell('ctx', mapping(connection)):
                order.append(name)

        threading.Thread(target=holder, daemon=True).start()
        held.wait(30)
        waiter = threading.Thread(target=enter, args=('db2', 'db2'),
                                  daemon=True)
        waiter.start()
        self._wait_until(lambda: self.switch._next is self.cells.cell2)
        newcomer = threading.Thread(target=enter, args=('db1', 'newcomer'),
                                    daemon=True)
        newcomer.start()
        time.sleep(cell_switch.DEFER_S / 5)   # the newcomer is waiting
        release.set()
        waiter.join(30)
        newcomer.join(30)
        self.assertEqual(['db2', 'newcomer'], order)

    def test_a_block_that_must_join_the_current_cell_is_not_held_for_good(
            self):
        # A block inside db1 waits for another thread's db1 block (an RPC
        # served for it) while a third waits for db2: the second joins
        # after DEFER_S, not never.
        joined, errors = threading.Event(), []

        def served():
            with self.switch.target_cell('ctx', mapping('db1')):
                joined.set()

        def caller():
            with self.switch.target_cell('ctx', mapping('db1')):
                threading.Thread(target=served, daemon=True).start()
                if not joined.wait(10 * cell_switch.DEFER_S):
                    errors.append('the served block never joined')

        waiter_done = threading.Event()

        def waiter():
            with self.switch.target_cell('ctx', mapping('db2')):
                waiter_done.set()

        outer = threading.Thread(target=caller, daemon=True)
        with self.switch.target_cell('ctx', mapping('db1')):
            threading.Thread(target=waiter, daemon=True).start()
            self._wait_until(lambda: self.switch._next is self.cells.cell2)
            outer.start()
            outer.join(30)
        self.assertEqual([], errors)
        self.assertTrue(waiter_done.wait(30))

    def _wait_until(self, check):
        deadline = time.monotonic() + 30
        while not check():
            self.assertLess(time.monotonic(), deadline, 'never happened')
            time.sleep(0.005)
