"""A reader-preferring lock for nova's CellDatabases harness fixture.

The fixture guards "which cell's database is the current one" with
fasteners' ReaderWriterLock, which prefers writers: once a writer waits,
new readers wait too. Nova wrote it for eventlet's cooperative threads;
in the embedded cloud nova runs on real threads, where a reader that
waits for another thread's answer (an RPC call to the conductor, the
scheduler's scatter-gather over cells) deadlocks as soon as a writer
queues, because the thread it waits for needs a read lock as well. Seen
here: the API and the scheduler hung for 30 minutes on a loaded machine.

Readers that wait only for an *active* writer (never for a pending one)
cannot deadlock that way; the fixture's own correctness does not depend
on writer preference (it re-checks the cell after every lock change).
This is a fix of nova's test harness, never of the services' logic.
"""

import fasteners


class ReaderPreferringLock(fasteners.ReaderWriterLock):

    def _acquire_read_lock(self, me):
        with self._cond:
            while self._writer is not None and self._writer != me:
                self._cond.wait()
            self._readers[me] = self._readers.get(me, 0) + 1


def install(cell_databases):
    """Swap the fixture's lock; call before any service thread starts."""
    cell_databases._cell_lock = ReaderPreferringLock()
