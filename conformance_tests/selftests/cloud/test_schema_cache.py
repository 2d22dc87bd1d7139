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

"""cloud/schema_cache: a cache nova's start may use, never one it needs."""

import collections
import json
import os

import fixtures
import testtools

from conformance_tests.cloud import schema_cache

SCHEMAS = {('main', None): 'CREATE TABLE instances (id INTEGER);',
           ('api', None): 'CREATE TABLE cell_mappings (id INTEGER);'}


class SchemaCacheTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'cache', 'nova-schema.json')

    def _store(self):
        # nova's DB_SCHEMA is a defaultdict(str).
        return collections.defaultdict(str)

    def test_no_cache_means_nova_migrates(self):
        store = self._store()
        self.assertFalse(schema_cache.load(store, self.path, '34.0.0'))
        self.assertEqual({}, dict(store))

    def test_what_was_saved_is_what_nova_gets(self):
        self.assertTrue(schema_cache.save(SCHEMAS, self.path, '34.0.0'))
        store = self._store()
        self.assertTrue(schema_cache.load(store, self.path, '34.0.0'))
        self.assertEqual(SCHEMAS, dict(store))

    def test_another_nova_version_is_stale(self):
        schema_cache.save(SCHEMAS, self.path, '33.0.0')
        store = self._store()
        self.assertFalse(schema_cache.load(store, self.path, '34.0.0'))
        self.assertEqual({}, dict(store))

    def test_a_damaged_schema_is_not_used(self):
        schema_cache.save(SCHEMAS, self.path, '34.0.0')
        with open(self.path) as f:
            cached = json.load(f)
        cached['schemas']['main'] = 'CREATE TABLE instances (id TEXT);'
        with open(self.path, 'w') as f:
            json.dump(cached, f)
        self.assertFalse(schema_cache.load(self._store(), self.path,
                                           '34.0.0'))

    def test_a_truncated_file_is_not_used(self):
        schema_cache.save(SCHEMAS, self.path, '34.0.0')
        with open(self.path) as f:
            text = f.read()
        with open(self.path, 'w') as f:
            f.write(text[:len(text) // 2])
        self.assertFalse(schema_cache.load(self._store(), self.path,
                                           '34.0.0'))

    def test_a_partial_migration_is_never_saved(self):
        self.assertFalse(schema_cache.save({('main', None): 'x'}, self.path,
                                           '34.0.0'))
        self.assertFalse(os.path.exists(self.path))
