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

"""cloud/sqlite_pool.py on a real oslo.db engine over a SQLite file: the
connection is kept between transactions, and oslo.db's own handling of
transactions (its BEGIN marker) still holds on the reused connection."""

import os
import time

import fixtures
from oslo_db.sqlalchemy import engines
import sqlalchemy
from sqlalchemy import pool
import testtools

from conformance_tests.cloud import sqlite_pool


class SqlitePoolTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        # install() patches oslo.db for the process it runs in (a service
        # process of the cloud); undo it for the other self-tests.
        self.addCleanup(setattr, engines, '_init_connection_args',
                        engines._init_connection_args)
        self.addCleanup(sqlalchemy.event.remove, pool.QueuePool, 'checkin',
                        sqlite_pool._forget_transaction)
        sqlite_pool.install()
        sqlite_pool.install()  # a second call does nothing
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'db.sqlite')
        self.engine = engines.create_engine('sqlite:///%s' % path)
        self.addCleanup(self.engine.dispose)

    def test_a_file_database_gets_a_pool_that_keeps_connections(self):
        self.assertIsInstance(self.engine.pool, pool.QueuePool)
        with self.engine.connect() as conn:
            first = conn.connection.dbapi_connection
        with self.engine.connect() as conn:
            self.assertIs(first, conn.connection.dbapi_connection)

    def test_a_memory_database_keeps_oslo_db_s_static_pool(self):
        engine = engines.create_engine('sqlite://')
        self.addCleanup(engine.dispose)
        self.assertIsInstance(engine.pool, pool.StaticPool)

    def test_a_memory_database_outlives_oslo_db_s_hourly_recycle(self):
        engine = engines.create_engine('sqlite://')
        self.addCleanup(engine.dispose)
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text('CREATE TABLE t (x INTEGER)'))
        # Two hours on: a recycled connection would be a new, empty
        # database.
        later = time.time() + 2 * 3600
        self.useFixture(fixtures.MockPatch(
            'sqlalchemy.pool.base.time.time', return_value=later))
        with engine.connect() as conn:
            self.assertEqual([], list(conn.execute(
                sqlalchemy.text('SELECT x FROM t'))))

    def test_a_reused_connection_still_gets_its_begin(self):
        with self.engine.begin() as conn:
            conn.execute(sqlalchemy.text('CREATE TABLE t (x INTEGER)'))
            conn.execute(sqlalchemy.text('INSERT INTO t VALUES (1)'))
        # A connection given back with oslo.db's "BEGIN sent" marker still
        # set (no rollback event reached oslo.db); the pool rolls it back.
        conn = self.engine.connect()
        conn.info['in_transaction'] = True
        conn.close()
        # Without the marker dropped, oslo.db would not send BEGIN and the
        # insert would be committed at once, rollback or not.
        with self.engine.connect() as conn:
            trans = conn.begin()
            conn.execute(sqlalchemy.text('INSERT INTO t VALUES (2)'))
            trans.rollback()
        with self.engine.connect() as conn:
            rows = conn.execute(sqlalchemy.text('SELECT x FROM t')).all()
        self.assertEqual([(1,)], rows)
