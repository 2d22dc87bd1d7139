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

"""nova's log lines go to its log file, not into the harness's memory."""

import io
import logging
import os

import fixtures
import testtools

from conformance_tests.cloud.services.nova import app


class LogToFileTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        root = logging.getLogger()
        self.addCleanup(setattr, root, 'handlers', list(root.handlers))
        self.addCleanup(root.setLevel, root.level)
        self.path = os.path.join(
            self.useFixture(fixtures.TempDir()).path, 'nova.log')

    def test_harness_capture_replaced_by_the_file(self):
        root = logging.getLogger()
        # What the harness's StandardLogging leaves: a capture in memory
        # and a handler that formats every DEBUG record.
        kept = io.StringIO()
        root.handlers = [logging.StreamHandler(kept),
                         logging.NullHandler()]
        root.setLevel(logging.DEBUG)
        formatted = []
        self.useFixture(fixtures.MonkeyPatch(
            'logging.Formatter.format',
            lambda fmt, record: formatted.append(record.levelno) or
            record.getMessage()))

        app._log_to_file(self.path)
        log = logging.getLogger('nova.compute.manager')
        log.info('instance %s spawned', 'abc')
        log.debug('not made at all')

        self.assertEqual(1, len(root.handlers))
        self.assertEqual('', kept.getvalue())
        self.assertEqual([logging.INFO], formatted)
        root.handlers[0].close()
        with open(self.path) as f:
            self.assertIn('instance abc spawned', f.read())

    def _handler_at(self, clock):
        self.useFixture(fixtures.MonkeyPatch(
            'time.monotonic', lambda: clock[0]))
        handler = app._FileHandlerFlushingEachSecond(self.path)
        self.addCleanup(handler.close)
        handler.setFormatter(logging.Formatter('%(message)s'))
        return handler

    def _on_disk(self):
        with open(self.path) as f:
            return f.read()

    def test_lines_reach_the_file_a_second_after_the_last_write(self):
        clock = [100.0]
        handler = self._handler_at(clock)
        record = logging.makeLogRecord({'msg': 'first line'})
        handler.handle(record)
        self.assertEqual('', self._on_disk())
        clock[0] += 1.0
        handler.handle(logging.makeLogRecord({'msg': 'second line'}))
        self.assertEqual('first line\nsecond line\n', self._on_disk())

    def test_close_writes_what_is_buffered(self):
        handler = self._handler_at([100.0])
        handler.handle(logging.makeLogRecord({'msg': 'last line'}))
        self.assertEqual('', self._on_disk())
        handler.close()
        self.assertEqual('last line\n', self._on_disk())
