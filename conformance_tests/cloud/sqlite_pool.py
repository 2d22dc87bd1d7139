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

"""Keep the embedded services' SQLite connections open between uses.

Nova's harness keeps each cell's database in a temporary SQLite file
(WAL); placement, keystone, glance and blazar use files too. oslo.db
gives file SQLite a NullPool, so every transaction opens the file anew,
runs oslo.db's connect hooks and makes SQLite read the schema again,
then closes it. py-spy on the embedded nova while it booted servers:
opening and closing connections was about 30% of the process's busy
time; with them kept, a boot on today's layout went from p50 0.78 s to
0.48 s (`conformance bench`). A real cloud's MySQL pool keeps its
connections; this gives the embedded cloud what SQLAlchemy itself gives
file SQLite, a QueuePool (without a size limit, so a burst of threads
never waits for a connection), and no ping before each use: a file does
not drop a connection as a server can.

An in-memory database (senlin's; nova's API and cell databases before
nova 34) lives as long as its one connection, which oslo.db keeps in a
StaticPool. oslo.db also asks every pool to recycle its connections
after an hour (``[database] connection_recycle_time``, 3600 s), which
there swaps the database for an empty one: seen in the bench's soak,
where senlin answered "no such table" one hour after the cloud started.
Such a pool never recycles.

Like nova/transport_wakeup.py, a fix of the test plumbing, never of the
services' logic: every query, transaction and lock is unchanged. The
one state oslo.db keeps per connection, its "a BEGIN was sent" marker,
is dropped when a connection goes back to the pool, which rolls back
whatever was open.
"""

_KEPT = 10  # connections kept open per database; more are opened at need


def _forget_transaction(dbapi_connection, connection_record):
    connection_record.info.pop('in_transaction', None)


def install():
    """Patch oslo.db's engine set-up in this process; a second call does
    nothing."""
    from oslo_db.sqlalchemy import engines
    import sqlalchemy
    from sqlalchemy import pool

    original = engines._init_connection_args
    if getattr(original, '_conformance_pooled', False):
        return

    def init_connection_args(url, engine_args, kw):
        original(url, engine_args, kw)
        if (url.get_backend_name() == 'sqlite'
                and engine_args.get('poolclass') is pool.NullPool):
            engine_args['poolclass'] = pool.QueuePool
            engine_args['pool_size'] = _KEPT
            engine_args['max_overflow'] = -1
            engine_args['pool_pre_ping'] = False
            engine_args['connect_args']['check_same_thread'] = False
        elif engine_args.get('poolclass') is pool.StaticPool:
            engine_args['pool_recycle'] = -1

    init_connection_args._conformance_pooled = True
    engines._init_connection_args = init_connection_args
    sqlalchemy.event.listen(pool.QueuePool, 'checkin', _forget_transaction)
