"""common/gabbi_files.py: meta validation, names and the real files."""

import os

import fixtures
import testtools
import yaml

from conformance_tests.common import gabbi_files

GOOD_ID = '2f6d8a1b-4c5e-4f7a-8b9c-3d0e1f2a6b66'


def _meta(**overrides):
    meta = {'id': GOOD_ID, 'rule': 'a rule',
            'min_microversion': '1.32'}
    meta.update(overrides)
    return {k: v for k, v in meta.items() if v is not None}


class LoadTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def _write(self, data, name='f.yaml'):
        path = os.path.join(self.tmp, name)
        with open(path, 'w') as f:
            if isinstance(data, str):
                f.write(data)
            else:
                yaml.safe_dump(data, f)
        return path

    def _doc(self, meta):
        doc = {'tests': [{'name': 't', 'GET': '/'}]}
        if meta is not None:
            doc['meta'] = meta
        return doc

    def test_valid_file_loads(self):
        data = gabbi_files.load(self._write(self._doc(_meta())))
        self.assertEqual(GOOD_ID, data['meta']['id'])
        self.assertEqual(1, len(data['tests']))

    def test_rejects_file_without_tests(self):
        path = self._write({'meta': _meta()})
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('no tests:', str(e))

    def test_rejects_empty_file(self):
        path = self._write('')
        self.assertRaises(gabbi_files.GabbiFileError, gabbi_files.load, path)

    def test_rejects_file_without_meta(self):
        path = self._write(self._doc(None))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('no top-level meta', str(e))

    def test_rejects_meta_that_is_not_a_mapping(self):
        path = self._write(self._doc(['id', GOOD_ID]))
        self.assertRaises(gabbi_files.GabbiFileError, gabbi_files.load, path)

    def test_rejects_missing_id(self):
        path = self._write(self._doc(_meta(id=None)))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('lacks id', str(e))

    def test_rejects_missing_rule(self):
        path = self._write(self._doc(_meta(rule=None)))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('lacks rule', str(e))

    def test_rejects_empty_rule(self):
        path = self._write(self._doc(_meta(rule='')))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('rule', str(e))

    def test_rejects_missing_min_microversion(self):
        path = self._write(self._doc(_meta(min_microversion=None)))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('lacks min_microversion', str(e))

    def test_names_every_missing_key(self):
        path = self._write(self._doc({'topology': 'x'}))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('id, rule, min_microversion', str(e))

    def test_rejects_unquoted_microversion(self):
        # YAML reads 1.10 as the float 1.1: the file must quote it.
        path = self._write(self._doc(_meta(min_microversion=1.10)))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('quoted string', str(e))

    def test_rejects_uppercase_uuid(self):
        path = self._write(self._doc(_meta(id=GOOD_ID.upper())))
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('canonical UUID', str(e))

    def test_rejects_uuid_without_dashes(self):
        path = self._write(self._doc(_meta(id=GOOD_ID.replace('-', ''))))
        self.assertRaises(gabbi_files.GabbiFileError, gabbi_files.load, path)

    def test_rejects_uuid_in_braces(self):
        path = self._write(self._doc(_meta(id='{%s}' % GOOD_ID)))
        self.assertRaises(gabbi_files.GabbiFileError, gabbi_files.load, path)

    def test_rejects_non_uuid_id(self):
        path = self._write(self._doc(_meta(id='not-a-uuid')))
        self.assertRaises(gabbi_files.GabbiFileError, gabbi_files.load, path)

    def test_error_names_the_file(self):
        path = self._write(self._doc(None), name='named-file.yaml')
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn('named-file.yaml', str(e))

    def test_error_is_a_value_error(self):
        self.assertTrue(issubclass(gabbi_files.GabbiFileError, ValueError))


class TestNameTest(testtools.TestCase):

    def test_dashes_become_underscores(self):
        self.assertEqual('test_forbidden_x',
                         gabbi_files.test_name('forbidden-x.yaml'))

    def test_directory_is_ignored(self):
        self.assertEqual(
            'test_forbidden_numbered_no_span',
            gabbi_files.test_name('/a/b/forbidden-numbered-no-span.yaml'))

    def test_runs_of_punctuation_collapse_and_edges_strip(self):
        self.assertEqual('test_a_b', gabbi_files.test_name('-a..b-.yaml'))


class RealFilesTest(testtools.TestCase):

    def test_there_are_placement_files(self):
        self.assertGreater(len(gabbi_files.test_files('placement')), 0)

    def test_underscore_files_are_not_tests(self):
        for path in gabbi_files.test_files('placement'):
            self.assertFalse(os.path.basename(path).startswith('_'), path)

    def test_every_file_loads_with_a_unique_id(self):
        seen = {}
        for path in gabbi_files.test_files('placement'):
            meta = gabbi_files.load(path)['meta']
            self.assertNotIn(meta['id'], seen, '%s reuses the id of %s' % (
                path, seen.get(meta['id'])))
            seen[meta['id']] = path

    def test_every_file_maps_to_a_unique_test_name(self):
        names = [gabbi_files.test_name(p)
                 for p in gabbi_files.test_files('placement')]
        self.assertEqual(len(names), len(set(names)))

    def test_microversions_are_quoted_strings(self):
        # An unquoted 1.10 would be read as the float 1.1.
        for path in gabbi_files.test_files('placement'):
            meta = gabbi_files.load(path)['meta']
            for key in ('min_microversion', 'max_microversion'):
                if key in meta:
                    self.assertIsInstance(meta[key], str, '%s %s' % (
                        path, key))

    def test_named_topologies_exist(self):
        topologies = gabbi_files.topologies('placement')
        for path in gabbi_files.test_files('placement'):
            meta = gabbi_files.load(path)['meta']
            if meta.get('topology'):
                self.assertIn(meta['topology'], topologies, path)

    def test_spec_figure_topology_has_eight_providers(self):
        topologies = gabbi_files.topologies('placement')
        self.assertIn('spec_figure', topologies)
        self.assertEqual(8, len(topologies['spec_figure']['providers']))

    def test_topology_parents_are_declared_before_children(self):
        for name, spec in gabbi_files.topologies('placement').items():
            seen = set()
            for rp_name, rp in spec.get('providers', {}).items():
                if rp.get('parent'):
                    self.assertIn(rp['parent'], seen, '%s: %s' % (
                        name, rp_name))
                seen.add(rp_name)

    def test_topologies_of_unknown_service_is_empty(self):
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.common.gabbi_files.gabbi_dir',
            lambda service: '/nonexistent/gabbits/' + service))
        self.assertEqual({}, gabbi_files.topologies('nope'))
