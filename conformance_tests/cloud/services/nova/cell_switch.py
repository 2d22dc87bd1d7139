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

"""Which cell database nova's harness gives to code that names none.

nova's CellDatabases fixture runs several cells in one process. A DB call
whose context names no cell gets the cell targeted last, a global that
``nova.context.target_cell`` switches. The fixture guards that global
with a readers-writer lock that prefers writers, and these two pieces
replace the parts of it that failed a busy cloud. Neither changes what
nova does or which cell a call reaches; they change how threads wait
for the switch.

1. Untargeted calls read the global without the lock. Seen in a fresh
   clone at load 10-16 (py-spy): a compute heartbeat held the cell
   database's write lock (DatabaseWriteLock) and waited for that read
   lock behind the scheduler's cell switch; the switch waited for a
   reader inside a target_cell block; that reader waited for the write
   lock. Nothing moved again. Reading one attribute needs no lock (the
   switch assigns it whole, under the GIL).

2. target_cell waits until it may switch, for as long as it takes. The
   fixture's switch takes the write lock, sets the global, lets go, and
   then takes the read lock to run the block; a writer queued for
   another cell gets in between, the check fails, and after three tries
   (sleeping 0, 1 and 2 s) the fixture's context manager ends without
   yielding: "RuntimeError: generator didn't yield". Seen in a fresh
   clone's .ci/run (vendor proof, concurrency 2): the conductor's
   schedule_and_build_instances raised it and the server stayed in
   BUILD, task state scheduling, until the test's 60 s wait ran out.
   Here a block for another cell waits until no block is inside the
   current one, then switches; it never gives up. A block for the
   current cell joins at once, unless a thread is waiting to switch to
   another cell: then it lets that thread go first, for up to DEFER_S
   (so a steady stream of one cell's blocks cannot starve another cell,
   and a block that must join one already inside, as an RPC served for
   it, is held up briefly, never for good). A thread inside a block
   enters nested blocks at once (it cannot wait for itself); the outer
   block's cell is back when a nested one for another cell ends.
"""

import contextlib
import threading
import time

# How long a block for the current cell lets a thread waiting for another
# cell go first.
DEFER_S = 0.5


class CellSwitch(object):
    """target_cell over a CellDatabases fixture ``cells``."""

    def __init__(self, cells, real_target_cell):
        self._cells = cells
        self._real_target_cell = real_target_cell
        self._changed = threading.Condition()
        self._inside = 0                  # blocks inside the current cell
        self._next = None                 # the cell a waiting thread wants
        # this thread's cells, outermost first
        self._mine = threading.local()

    def _desired(self, cell_mapping):
        if cell_mapping is None:
            return self._cells._default_ctxt_mgr
        return self._cells._ctxt_mgrs[cell_mapping.database_connection]

    def _stack(self):
        stack = getattr(self._mine, 'stack', None)
        if stack is None:
            stack = self._mine.stack = []
        return stack

    def _may_enter(self, desired, patient_until):
        if (self._next is not None and self._next is not desired and
                time.monotonic() < patient_until):
            return False          # a thread waits to switch: it goes first
        if not self._inside:
            return True
        return self._cells._last_ctxt_mgr is desired

    def _enter(self, desired):
        stack = self._stack()
        with self._changed:
            if not stack:
                patient_until = time.monotonic() + DEFER_S
                while not self._may_enter(desired, patient_until):
                    if (self._next is None and
                            self._cells._last_ctxt_mgr is not desired):
                        self._next = desired
                    left = patient_until - time.monotonic()
                    self._changed.wait(left if left > 0 else None)
                if self._next is desired:
                    self._next = None
                if self._cells._last_ctxt_mgr is not desired:
                    # Switched: the threads waiting for this cell may
                    # join, and the others may name the next cell.
                    self._changed.notify_all()
            self._cells._last_ctxt_mgr = desired
            self._inside += 1
            stack.append(desired)

    def _leave(self):
        stack = self._stack()
        with self._changed:
            stack.pop()
            self._inside -= 1
            if stack:
                self._cells._last_ctxt_mgr = stack[-1]
            elif not self._inside:
                # As the fixture does: code outside every block gets the
                # default cell.
                self._cells._last_ctxt_mgr = self._cells._default_ctxt_mgr
                self._changed.notify_all()

    @contextlib.contextmanager
    def target_cell(self, context, cell_mapping):
        self._enter(self._desired(cell_mapping))
        try:
            with self._real_target_cell(context, cell_mapping) as targeted:
                yield targeted
        finally:
            self._leave()


def install(harness):
    """Both pieces, on the harness's CellDatabases fixture."""
    import fixtures
    cells = harness.cell_databases

    def get_context_manager(context):
        targeted = getattr(context, 'db_connection', None)
        return targeted if targeted else cells._last_ctxt_mgr

    harness.useFixture(fixtures.MonkeyPatch(
        'nova.db.main.api.get_context_manager', get_context_manager))
    switch = CellSwitch(cells, cells._real_target_cell)
    harness.useFixture(fixtures.MonkeyPatch(
        'nova.context.target_cell', switch.target_cell))
    return switch
