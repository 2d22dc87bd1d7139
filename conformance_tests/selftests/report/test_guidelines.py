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

"""report/guidelines.py: capabilities from guidelines/*.yaml."""

import os

import fixtures
import testtools
import yaml

from conformance_tests.report import guidelines


def _doc(*caps, seed='003_x.txt'):
    return {'seed': seed, 'feature': 'a feature', 'service': 'placement',
            'capabilities': list(caps)}


def _cap(cap_id, tests=('t-1',), **extra):
    cap = {'id': cap_id, 'rule': 'rule of %s' % cap_id, 'tests': list(tests)}
    cap.update(extra)
    return cap


class RealGuidelinesTest(testtools.TestCase):

    def test_every_capability_has_seed_feature_rule_tests(self):
        caps = guidelines.load_all()
        self.assertGreater(len(caps), 0)
        for cap in caps:
            for key in ('seed', 'feature', 'rule', 'tests'):
                self.assertTrue(cap[key], '%s lacks %s' % (cap['id'], key))
            for test_id in cap['tests']:
                # An idempotent id, as Tempest's check-uuid makes them.
                self.assertRegex(str(test_id), r'^[0-9a-f]{8}-[0-9a-f]{4}-'
                                 r'[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')

    def test_capability_ids_are_unique(self):
        ids = [c['id'] for c in guidelines.load_all()]
        self.assertEqual(len(ids), len(set(ids)))


class TempGuidelinesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def write(self, name, doc):
        with open(os.path.join(self.dir, name), 'w') as f:
            yaml.safe_dump(doc, f)

    def test_valid_directory_loads_in_file_order(self):
        self.write('002-b.yaml', _doc(_cap('b.1'), seed='002_b.txt'))
        self.write('001-a.yaml', _doc(_cap('a.1'), _cap('a.2'),
                                      seed='001_a.txt'))
        caps = guidelines.load_all(self.dir)
        self.assertEqual(['a.1', 'a.2', 'b.1'], [c['id'] for c in caps])
        self.assertEqual('001_a.txt', caps[0]['seed'])
        self.assertEqual('a feature', caps[0]['feature'])

    def test_defaults_for_optional_keys(self):
        self.write('a.yaml', _doc(_cap('a.1')))
        cap = guidelines.load_all(self.dir)[0]
        self.assertIsNone(cap['expected_fail'])
        self.assertFalse(cap['disruptive'])

    def test_services_are_the_service_then_what_it_uses(self):
        self.write('a.yaml', dict(_doc(_cap('a.1')), service='compute',
                                  uses=['image', 'compute']))
        self.assertEqual(['compute', 'image'],
                         guidelines.load_all(self.dir)[0]['services'])

    def test_no_service_named_means_every_service(self):
        doc = _doc(_cap('a.1'))
        del doc['service']
        self.write('a.yaml', doc)
        self.assertIsNone(guidelines.load_all(self.dir)[0]['services'])

    def test_uses_is_a_list_of_catalog_types(self):
        self.write('a.yaml', dict(_doc(_cap('a.1')), uses='image'))
        e = self.assertRaises(guidelines.GuidelineError,
                              guidelines.load_all, self.dir)
        self.assertIn('a.yaml: service is a catalog type', str(e))

    def test_test_ids_become_strings(self):
        self.write('a.yaml', _doc(_cap('a.1', tests=[123])))
        self.assertEqual(['123'], guidelines.load_all(self.dir)[0]['tests'])

    def test_non_yaml_files_are_ignored(self):
        self.write('a.yaml', _doc(_cap('a.1')))
        self.write('notes.txt', _doc(_cap('a.1')))
        self.assertEqual(1, len(guidelines.load_all(self.dir)))

    def test_duplicate_capability_id_across_files(self):
        self.write('a.yaml', _doc(_cap('dup')))
        self.write('b.yaml', _doc(_cap('dup')))
        e = self.assertRaises(guidelines.GuidelineError,
                              guidelines.load_all, self.dir)
        self.assertIn('dup', str(e))
        self.assertIn('a.yaml', str(e))
        self.assertIn('b.yaml', str(e))

    def test_duplicate_capability_id_in_one_file(self):
        self.write('a.yaml', _doc(_cap('dup'), _cap('dup')))
        self.assertRaises(guidelines.GuidelineError,
                          guidelines.load_all, self.dir)

    def test_capability_without_tests(self):
        self.write('a.yaml', _doc(_cap('no.tests', tests=())))
        e = self.assertRaises(guidelines.GuidelineError,
                              guidelines.load_all, self.dir)
        self.assertIn('lacks tests', str(e))

    def test_capability_without_rule(self):
        cap = _cap('no.rule')
        del cap['rule']
        self.write('a.yaml', _doc(cap))
        e = self.assertRaises(guidelines.GuidelineError,
                              guidelines.load_all, self.dir)
        self.assertIn('lacks rule', str(e))

    def test_capability_without_id(self):
        cap = _cap('x')
        del cap['id']
        self.write('a.yaml', _doc(cap))
        self.assertRaises(guidelines.GuidelineError,
                          guidelines.load_all, self.dir)

    def test_error_is_a_value_error(self):
        self.assertTrue(issubclass(guidelines.GuidelineError, ValueError))

    def test_empty_file_is_a_guideline_error(self):
        with open(os.path.join(self.dir, 'empty.yaml'), 'w') as f:
            f.write('')
        self.assertRaises(guidelines.GuidelineError,
                          guidelines.load_all, self.dir)

    def test_missing_seed_is_a_guideline_error(self):
        with open(os.path.join(self.dir, 'x.yaml'), 'w') as f:
            yaml.safe_dump({'feature': 'f', 'capabilities': [
                {'id': 'a', 'rule': 'r', 'tests': ['1']}]}, f)
        self.assertRaises(guidelines.GuidelineError,
                          guidelines.load_all, self.dir)


class ExpectationsAndScopeTest(testtools.TestCase):
    """Expectations need signatures; scopes never select nothing."""

    def load(self, cap_text):
        import fixtures
        d = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(d, '001-x.yaml'), 'w') as f:
            f.write('seed: 001_x.txt\nfeature: f\ncapabilities:\n'
                    '  - id: a.b\n    rule: r\n    tests: [t1]\n' + cap_text)
        return guidelines.load_all(d)

    def test_expectation_without_signature_is_refused(self):
        e = self.assertRaises(
            guidelines.GuidelineError, self.load,
            '    expect:\n      legacy-quota: {status: fail}\n')
        self.assertIn('no signature', str(e))

    def test_old_bare_status_expectation_is_refused(self):
        self.assertRaises(guidelines.GuidelineError, self.load,
                          '    expect: {legacy-quota: fail}\n')

    def test_expected_fail_needs_a_reason_and_signature(self):
        self.assertRaises(guidelines.GuidelineError, self.load,
                          "    expected_fail: {signature: 'x'}\n")
        cap = self.load("    expected_fail: {reason: why, signature: 'x'}\n")
        self.assertEqual('fail', cap[0]['expected_fail']['status'])

    def test_a_release_expectation_names_its_cause(self):
        cap = self.load("    by_release:\n      '2024.1': {status: pass, "
                        "reason: 'osc-lib 4 changed it'}\n")[0]
        self.assertEqual({'status': 'pass', 'signature': None,
                          'reason': 'osc-lib 4 changed it'},
                         cap['by_release']['2024.1'])
        e = self.assertRaises(guidelines.GuidelineError, self.load,
                              "    by_release: {'2024.1': {status: pass}}\n")
        self.assertIn('reason', str(e))
        e = self.assertRaises(
            guidelines.GuidelineError, self.load,
            "    by_release: {'2024.1': {status: fail, reason: r}}\n")
        self.assertIn('no signature', str(e))
        e = self.assertRaises(
            guidelines.GuidelineError, self.load,
            "    by_release: {'2019.1': {status: pass, reason: r}}\n")
        self.assertIn('not an older series', str(e))

    def test_select_by_seed_and_capability(self):
        caps = guidelines.load_all()
        placement = guidelines.select(caps, seeds=['003'])
        self.assertTrue(placement)
        self.assertTrue(all(c.startswith('placement.') for c in placement))
        one = guidelines.select(caps, capability_ids=[placement[0]])
        self.assertEqual([placement[0]], one)
        self.assertEqual(len(caps), len(guidelines.select(caps)))

    def test_unknown_seed_or_capability_is_refused(self):
        caps = guidelines.load_all()
        self.assertRaises(guidelines.GuidelineError, guidelines.select,
                          caps, seeds=['009'])
        self.assertRaises(guidelines.GuidelineError, guidelines.select,
                          caps, capability_ids=['no.such'])
