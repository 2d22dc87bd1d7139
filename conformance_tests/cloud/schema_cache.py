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

"""Nova's migrated database schemas, kept between cloud starts.

Nova's harness migrates its main (cell) and API databases with alembic
once per process and replays the resulting SQL for every later database
(``nova.tests.fixtures.nova.DB_SCHEMA``). Every cloud start is a new
process, so every start paid for both migrations (about 1 s of CPU on a
quiet core, 4 s on a loaded one, measured with py-spy): this module keeps
that SQL in the virtualenv, next to the nova it came from, and hands it
to the harness before it looks.

Never relied on for correctness: the file carries nova's version and a
checksum of the SQL; a missing, unreadable, foreign-version or damaged
file is ignored (nova migrates as usual) and written anew after the start.
"""

import hashlib
import json
import os
import sys

FORMAT = 1
KEYS = (('main', None), ('api', None))


def cache_path():
    return os.path.join(sys.prefix, 'var', 'cache', 'openstack-conformance',
                        'nova-schema.json')


def _nova_version():
    from importlib import metadata
    return metadata.version('nova')


def _digest(schemas):
    return hashlib.sha256(json.dumps(schemas, sort_keys=True).encode()
                          ).hexdigest()


def load(schema_store, path=None, version=None):
    """Fill ``schema_store`` (nova's DB_SCHEMA) from the cache; return True
    if the cache was used, False if nova must migrate."""
    path = path or cache_path()
    version = version or _nova_version()
    try:
        with open(path) as f:
            cached = json.load(f)
        schemas = cached['schemas']
        usable = (cached.get('format') == FORMAT
                  and cached.get('nova') == version
                  and cached.get('sha256') == _digest(schemas)
                  and all(schemas.get(db) for db, _ in KEYS))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        usable = False
    if not usable:
        return False
    for db, db_version in KEYS:
        schema_store[(db, db_version)] = schemas[db]
    return True


def save(schema_store, path=None, version=None):
    """Write what nova migrated in this process, atomically; a cache that
    cannot be written only costs the next start its migrations."""
    path = path or cache_path()
    schemas = {db: schema_store.get((db, db_version)) or ''
               for db, db_version in KEYS}
    if not all(schemas.values()):
        return False
    body = {'format': FORMAT, 'nova': version or _nova_version(),
            'sha256': _digest(schemas), 'schemas': schemas}
    tmp = '%s.%d.tmp' % (path, os.getpid())
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, 'w') as f:
            json.dump(body, f)
        os.replace(tmp, path)
    except OSError:
        return False
    return True
