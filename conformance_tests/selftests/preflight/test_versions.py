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

"""Version documents, microversion claims and catalog lookups: pure
functions, no cloud."""

import testtools

from conformance_tests.preflight import endpoints
from conformance_tests.preflight import redact
from conformance_tests.preflight import versions
from conformance_tests import services


class Conf(object):
    """tempest.conf text as preflight.conf.TempestConf gives it."""

    def __init__(self, sections=None):
        self.sections = sections or {}

    def get(self, group, option):
        return self.sections.get(group, {}).get(option)

    def flag(self, group, option, default):
        text = self.get(group, option)
        return default if text is None else text == 'true'


class VersionsTest(testtools.TestCase):

    def test_candidates(self):
        self.assertEqual(
            ['http://h:8774/v2.1', 'http://h:8774/'],
            versions.candidates('http://h:8774/v2.1'))
        self.assertEqual(
            ['http://h/compute/v2.1/abc', 'http://h/compute/v2.1/',
             'http://h/compute/'],
            versions.candidates('http://h/compute/v2.1/abc'))
        self.assertEqual(['http://h:8778/'],
                         versions.candidates('http://h:8778/'))
        self.assertEqual(['http://h/placement'],
                         versions.candidates('http://h/placement'))

    def test_entries_and_pick(self):
        root = {'versions': [
            {'id': 'v2.0', 'status': 'DEPRECATED', 'version': ''},
            {'id': 'v2.1', 'status': 'CURRENT', 'version': '2.79',
             'min_version': '2.1'}]}
        found = versions.entries(root)
        self.assertEqual('v2.1', versions.pick(
            found, 'http://h/v2.1/abc')['id'])
        self.assertEqual('v2.0', versions.pick(found, 'http://h/v2')['id'])
        self.assertEqual('v2.1', versions.pick(found, 'http://h/')['id'])
        keystone = {'versions': {'values': [{'id': 'v3.14',
                                             'status': 'stable'}]}}
        self.assertEqual('v3.14', versions.pick(
            versions.entries(keystone), 'http://h/v3')['id'])
        senlin = {'versions': [{'id': '1.0', 'status': 'CURRENT'}]}
        self.assertEqual('1.0', versions.pick(
            versions.entries(senlin), 'http://h/v1')['id'])
        self.assertEqual([], versions.entries({'error': 'x'}))
        self.assertEqual([], versions.entries(None))

    def test_offered(self):
        self.assertEqual(('2.1', '2.79'), versions.offered(
            {'id': 'v2.1', 'version': '2.79', 'min_version': '2.1'}))
        self.assertEqual(('1.0', '1.39'), versions.offered(
            {'id': 'v1.0', 'max_version': '1.39', 'min_version': '1.0'}))
        self.assertIsNone(versions.offered(
            {'id': 'v2.0', 'version': '', 'min_version': ''}))
        self.assertIsNone(versions.offered({'id': 'v2.18'}))

    def claim(self, low, high, offer=('2.1', '2.79')):
        return versions.check_claims('compute', low, high, offer)

    def refused(self, low, high, offer=('2.1', '2.79')):
        return str(self.assertRaises(versions.MicroversionError,
                                     self.claim, low, high, offer))

    def test_claims_within_the_offer(self):
        self.claim('2.1', '2.79')
        self.claim('2.10', '2.60')      # 2.10 is not 2.1
        self.claim(None, None)
        self.claim('2.1', 'latest')
        self.claim(None, None, offer=None)

    def test_claims_beyond_the_offer(self):
        self.assertEqual('[compute] max_microversion 2.95: the cloud offers '
                         '2.1-2.79', self.refused('2.1', '2.95'))
        self.assertEqual('[compute] min_microversion 2.0: the cloud offers '
                         '2.1-2.79', self.refused('2.0', '2.79'))
        self.assertEqual('[compute] max_microversion 2.60: the cloud offers '
                         'no microversions',
                         self.refused(None, '2.60', offer=None))

    def test_claims_that_are_no_microversion(self):
        self.assertEqual('[compute] max_microversion v2.5: not X.Y or '
                         'latest', self.refused('2.1', 'v2.5'))
        self.assertEqual('[compute] min_microversion 2: not X.Y or latest',
                         self.refused('2', '2.5'))
        self.assertEqual('[compute] min_microversion 2.60 is above '
                         'max_microversion 2.50',
                         self.refused('2.60', '2.50'))


class CatalogLookupTest(testtools.TestCase):
    """Every registered API says where its clients look, from the conf's
    text, as Tempest would."""

    def apis(self):
        return {a.catalog_type: a for a in endpoints.apis()}

    def test_every_api_is_looked_up(self):
        apis = self.apis()
        self.assertEqual({'identity', 'compute', 'placement', 'clustering',
                          'reservation', 'image', 'network'}, set(apis))
        for api in services.all():
            self.assertIn(api, apis.values())

    def test_defaults(self):
        lookups = {t: a.catalog(Conf()) for t, a in self.apis().items()}
        self.assertEqual('public', lookups['compute'].interface)
        self.assertEqual('RegionOne', lookups['compute'].region)
        self.assertEqual('[identity] region',
                         lookups['compute'].region_option)
        self.assertEqual('[placement] endpoint_type',
                         lookups['placement'].interface_option)
        self.assertEqual('[identity] v3_endpoint_type',
                         lookups['identity'].interface_option)
        self.assertIsNone(lookups['clustering'].interface_option)
        self.assertIsNone(lookups['compute'].type_option)

    def test_conf_values(self):
        conf = Conf({'identity': {'region': 'East'},
                     'compute': {'region': 'West',
                                 'endpoint_type': 'internalURL',
                                 'catalog_type': 'computev21'},
                     'conformance_reservation': {'region': ''}})
        apis = self.apis()
        compute = apis['compute'].catalog(conf)
        self.assertEqual(('computev21', 'internal', 'West'),
                         compute[:3])
        self.assertEqual('[compute] catalog_type', compute.type_option)
        self.assertEqual('[compute] region', compute.region_option)
        # An empty region is [identity] region's, as in Tempest.
        self.assertEqual('East', apis['reservation'].catalog(conf).region)
        self.assertEqual('East', apis['clustering'].catalog(conf).region)

    def test_flags(self):
        apis = self.apis()
        self.assertEqual(('nova', True), apis['compute'].available_flag())
        # Where a service's own Tempest plugin is installed (the
        # self-tests' virtualenv has blazar's and senlin's), its flag and
        # default are the registered ones; ours default to false alone.
        self.assertEqual(('senlin', True),
                         apis['clustering'].available_flag())
        self.assertEqual(('blazar', True),
                         apis['reservation'].available_flag())
        self.assertFalse(apis['clustering'].service_option.default)
        self.assertFalse(apis['reservation'].service_option.default)
        self.assertEqual(('placement', True),
                         apis['placement'].available_flag())
        self.assertIsNone(apis['identity'].available_flag())
        self.assertEqual((True, '[service_available] nova = true '
                          '(default)'),
                         endpoints.enabled(Conf(), apis['compute']))
        self.assertEqual((False, '[service_available] glance = false'),
                         endpoints.enabled(Conf({'service_available': {
                             'glance': 'false'}}), apis['image']))


class RedactTest(testtools.TestCase):

    def test_masks_secrets_and_url_credentials(self):
        r = redact.Redactor()
        r.add('s3cret-pw')
        r.add('true')           # never a secret worth garbling text for
        r.add('ab')             # too short to mask
        self.assertEqual('*** is true at http://***@h/v3', r.text(
            's3cret-pw is true at http://user:pw@h/v3'))
        self.assertEqual({'a': ['***', 1]}, r.data({'a': ['s3cret-pw', 1]}))
