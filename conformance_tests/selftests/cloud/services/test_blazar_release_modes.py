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

"""blazar's per-release choice, by installed version: eventlet mode
before blazar 18 (2024.1's blazar 13 patches its process itself)."""

import os
import sqlite3

import fixtures
import testtools

from conformance_tests.cloud.services import blazar
from conformance_tests.cloud.services.blazar import app


class EventletModeTest(testtools.TestCase):

    def test_by_major_version(self):
        self.assertTrue(blazar.eventlet_mode((13, 0, 1)))
        self.assertFalse(blazar.eventlet_mode((18, 0, 0)))

    def test_installed_blazar_of_this_virtualenv(self):
        from conformance_tests.cloud import packages
        version = packages.installed_version('blazar')
        self.assertEqual(version[0] < blazar.THREADING_MAJOR,
                         blazar.eventlet_mode())


class WriteAheadLogTest(testtools.TestCase):
    """Eventlet-mode blazar's SQLite file in WAL, so a green thread's
    read transaction never locks another's commit out."""

    def test_a_sqlite_file_is_put_in_wal_mode(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'blazar.db')
        sqlite3.connect(path).close()
        app.write_ahead_log('sqlite:///' + path)
        connection = sqlite3.connect(path)
        self.addCleanup(connection.close)
        self.assertEqual(('wal',), connection.execute(
            'PRAGMA journal_mode').fetchone())

    def test_other_databases_are_left_alone(self):
        here = self.useFixture(fixtures.TempDir()).path
        cwd = os.getcwd()
        os.chdir(here)
        self.addCleanup(os.chdir, cwd)
        app.write_ahead_log('sqlite://')
        app.write_ahead_log('mysql+pymysql://u:p@db/blazar')
        self.assertEqual([], os.listdir(here))
