"""cloud/nova_harness_lock.py: readers never wait for a pending writer."""

import threading
import time

import testtools

from conformance_tests.cloud import nova_harness_lock


class ReaderPreferringLockTest(testtools.TestCase):

    def test_reader_waiting_on_a_reader_survives_a_pending_writer(self):
        # The nova deadlock: A reads and waits for B, B needs a read lock,
        # C wants to write meanwhile.
        lock = nova_harness_lock.ReaderPreferringLock()
        b_done = threading.Event()

        def b():
            with lock.read_lock():
                b_done.set()

        def c():
            with lock.write_lock():
                pass

        with lock.read_lock():
            writer = threading.Thread(target=c, daemon=True)
            writer.start()
            time.sleep(0.1)  # C is now pending
            reader = threading.Thread(target=b, daemon=True)
            reader.start()
            self.assertTrue(b_done.wait(5), 'reader B deadlocked')
        writer.join(5)
        self.assertFalse(writer.is_alive(), 'writer C never got the lock')

    def test_writer_excludes_readers(self):
        lock = nova_harness_lock.ReaderPreferringLock()
        entered = threading.Event()

        def reader():
            with lock.read_lock():
                entered.set()

        with lock.write_lock():
            t = threading.Thread(target=reader, daemon=True)
            t.start()
            self.assertFalse(entered.wait(0.2))
        self.assertTrue(entered.wait(5))

    def test_writer_may_read_and_readers_reenter(self):
        lock = nova_harness_lock.ReaderPreferringLock()
        with lock.write_lock():
            with lock.read_lock():
                pass
        with lock.read_lock():
            with lock.read_lock():
                pass
        self.assertEqual({}, lock._readers)
