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

"""api/compute/test_server_group_novaclient.py: reading what the `nova`
shell prints (a prettytable whose dict cells are Python reprs), and the
seed's nested-policy schema of the spec reference. No cloud."""

import testtools

from conformance_tests.api.compute import test_server_group_novaclient as t

TABLE = """\
+----+------+------------+---------+---------------+--------------+---------+
| Id | Name | Project Id | User Id | Policy        | Rules        | Members |
+----+------+------------+---------+---------------+--------------+---------+
| g1 | sg-1 | p | u | anti-affinity | {'max_server_per_host': 2} | [] |
+----+------+------------+---------+---------------+--------------+---------+
"""


class NovaShellTableTest(testtools.TestCase):

    def test_rows_by_column(self):
        rows = t.parse_table(TABLE)
        self.assertEqual(1, len(rows))
        self.assertEqual('g1', rows[0]['Id'])
        self.assertEqual('anti-affinity', rows[0]['Policy'])
        self.assertEqual({'max_server_per_host': 2},
                         t.parse_mapping(rows[0]['Rules']))
        self.assertEqual([], t.parse_mapping(rows[0]['Members']))

    def test_no_table(self):
        self.assertEqual([], t.parse_table('nova CLI is deprecated\n'))

    def test_mapping_json_repr_or_text(self):
        self.assertEqual({'a': 1}, t.parse_mapping('{"a": 1}'))
        self.assertEqual({'name': 'anti-affinity', 'rules': {}},
                         t.parse_mapping("{'name': 'anti-affinity', "
                                         "'rules': {}}"))
        self.assertEqual('anti-affinity', t.parse_mapping('anti-affinity'))
        self.assertEqual('', t.parse_mapping(''))


class SeedSchemaTest(testtools.TestCase):
    """The reference validates a nested policy with the seed's schema,
    verbatim: what it accepts and refuses."""

    def _valid(self, policy, **extra):
        import jsonschema

        from conformance_tests.cloud.services.nova import mutants
        body = {'server_group': dict({'name': 'sg', 'policy': policy},
                                     **extra)}
        try:
            jsonschema.validate(body, mutants._seed_create_schema())
        except jsonschema.ValidationError:
            return False
        return True

    def setUp(self):
        super().setUp()
        try:
            import nova.api.validation.parameter_types  # noqa: F401
        except ImportError:
            self.skipTest('nova is not installed (the [cloud] extra)')

    def test_accepted(self):
        self.assertTrue(self._valid({'name': 'anti-affinity', 'rules': {
            'max_server_per_host': 3}}))
        self.assertTrue(self._valid({'name': 'anti-affinity'}))
        for name in ('affinity', 'soft-anti-affinity', 'soft-affinity'):
            self.assertTrue(self._valid({'name': name}), name)

    def test_refused(self):
        self.assertFalse(self._valid({'name': 'affinity', 'rules': {
            'max_server_per_host': 1}}))
        self.assertFalse(self._valid({'name': 'anti-affinity', 'rules': {
            'max_server_per_host': 0}}))
        self.assertFalse(self._valid({'name': 'anti-affinity', 'rules': {
            'other': 1}}))
        self.assertFalse(self._valid('anti-affinity'))
        self.assertFalse(self._valid({'name': 'anti-affinity'},
                                     rules={'max_server_per_host': 2}))
