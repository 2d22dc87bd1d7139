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

"""common/gabbi_files.py: meta validation, names and the real files."""

import os

import fixtures
import testtools
import yaml

from conformance_tests.common import gabbi_files
from conformance_tests.common import gabbi_handlers

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
        doc = {'tests': [{'name': 't', 'GET': '/',
                          'response_json_paths': {'$.a': 1}}]}
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

    def test_smoke_is_true_or_false(self):
        self.assertTrue(gabbi_files.load(self._write(self._doc(
            _meta(smoke=True))))['meta']['smoke'])
        e = self.assertRaises(gabbi_files.GabbiFileError, gabbi_files.load,
                              self._write(self._doc(_meta(smoke='yes'))))
        self.assertIn('meta smoke is true or false', str(e))

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


def _request(**fields):
    request = {'name': 'req', 'GET': '/x',
               'response_json_paths': {'$.a': 1}}
    request.update(fields)
    return {k: v for k, v in request.items() if v is not None}


class RequestRulesTest(testtools.TestCase):
    """Requests that cannot fail are refused when the file is loaded."""

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def _load(self, tests, defaults=None, topologies=None):
        doc = {'meta': _meta(), 'tests': tests}
        if defaults is not None:
            doc['defaults'] = defaults
        if topologies is not None:
            doc['meta']['topology'] = 'topo'
            with open(os.path.join(self.tmp, '_topologies.yaml'), 'w') as f:
                yaml.safe_dump({'topo': topologies}, f)
        path = os.path.join(self.tmp, 'some-file.yaml')
        with open(path, 'w') as f:
            yaml.safe_dump(doc, f)
        return gabbi_files.load(path)

    def assert_refused(self, tests, *fragments, **kwargs):
        e = self.assertRaises(gabbi_files.GabbiFileError, self._load, tests,
                              **kwargs)
        msg = str(e)
        self.assertEqual(1, len(msg.splitlines()), msg)
        self.assertIn('some-file.yaml', msg)
        for fragment in fragments:
            self.assertIn(fragment, msg)
        return msg

    def test_a_request_with_a_body_assertion_loads(self):
        self._load([_request()])

    def test_xfail_is_refused(self):
        self.assert_refused([_request(name='flaky', xfail=True)],
                            "request 'flaky'", 'xfail', 'never fail')

    def test_xfail_false_is_refused_too(self):
        self.assert_refused([_request(xfail=False)], 'xfail')

    def test_xfail_in_defaults_is_refused(self):
        self.assert_refused([_request()], 'defaults', 'xfail',
                            defaults={'xfail': True})

    def test_skip_is_refused(self):
        self.assert_refused([_request(skip='not today')], 'skip')

    def test_empty_provider_set_is_refused(self):
        for key in gabbi_handlers.SET_KEYS:
            msg = self.assert_refused(
                [_request(name='empty', **{key: []})], "request 'empty'",
                key, 'asserts nothing', 'none')
            self.assertIn('%s: none' % key, msg)

    def test_null_provider_set_is_refused(self):
        # `response_candidate_providers:` with nothing after it.
        request = _request()
        request['response_candidate_providers'] = None
        self.assert_refused([request], 'response_candidate_providers',
                            'asserts nothing')

    def test_none_provider_set_loads(self):
        self._load([_request(response_json_paths=None,
                             response_candidate_providers='none')])

    def test_status_only_request_is_refused(self):
        self.assert_refused(
            [_request(name='bare', status=400, response_json_paths=None)],
            "request 'bare'", 'asserts only its status')

    def test_implicit_status_only_request_is_refused(self):
        # No status: key still asserts gabbi's default 200.
        self.assert_refused([_request(response_json_paths=None)],
                            'asserts only its status')

    def test_empty_assertion_counts_as_none(self):
        self.assert_refused([_request(response_strings=[],
                                      response_json_paths={})],
                            'asserts only its status')

    def test_status_only_with_spec_desc_loads(self):
        self._load([_request(
            status=400, response_json_paths=None,
            desc='spec 003: would result in HTTP 400 Bad Request error')])

    def test_status_only_with_a_vague_desc_is_refused(self):
        for desc in ('spec: 400', 'the spec says so', 'spec 3: 400',
                     'spec 003:'):
            self.assert_refused([_request(status=400, desc=desc,
                                          response_json_paths=None)],
                                'asserts only its status')

    def test_assertion_in_defaults_counts(self):
        self._load([_request(response_json_paths=None)],
                   defaults={'response_headers': {'x-a': 'b'}})

    def _delete_then(self, follow_url='/g/1', follow=None, desc='step: x'):
        delete = {'name': 'delete', 'DELETE': '/g/1', 'status': 204,
                  'desc': desc}
        follow = follow or {'response_json_paths': {'$.e.code': 404}}
        return [delete, dict({'name': 'show', 'GET': follow_url,
                              'status': 404}, **follow)]

    def test_step_delete_checked_by_the_next_request_loads(self):
        self._load(self._delete_then())

    def test_step_delete_without_desc_is_refused(self):
        self.assert_refused(self._delete_then(desc=''),
                            "request 'delete'", 'asserts only its status')

    def test_step_delete_followed_by_another_url_is_refused(self):
        self.assert_refused(self._delete_then(follow_url='/g/2'),
                            'same URL')

    def test_step_delete_followed_by_a_status_only_request_is_refused(self):
        self.assert_refused(
            self._delete_then(follow={'desc': 'spec 000: x 404'}),
            'same URL')

    def test_step_delete_at_the_end_is_refused(self):
        self.assert_refused(self._delete_then()[:1], 'same URL')

    def test_step_is_only_for_delete(self):
        self.assert_refused([_request(desc='step: x',
                                      response_json_paths=None)],
                            'only for a DELETE')

    def test_environ_is_refused(self):
        self.assert_refused([_request(GET="/x/$ENVIRON['AGG_A']")],
                            '$ENVIRON', "$RUN['NAME']")

    def test_run_prefix_is_always_defined(self):
        self._load([_request(GET="/x/$RUN['PREFIX']")])

    def test_unknown_run_name_is_refused(self):
        self.assert_refused([_request(GET="/x/$RUN['AGG_Z']")],
                            "$RUN['AGG_Z'] is not defined", 'PREFIX')

    def test_topology_names_are_defined(self):
        self._load([_request(
            GET="/x/$RUN['AGG_A']/$RUN['CN1']",
            query_parameters={'r': "$RUN['RC_CORE']:1"})],
            topologies={'resource_classes': ['CORE'],
                        'aggregates': ['AGG_A'],
                        'providers': {'cn1': {}}})

    def test_unknown_topology_is_refused(self):
        doc = {'meta': _meta(topology='nope'), 'tests': [_request()]}
        path = os.path.join(self.tmp, 'some-file.yaml')
        with open(path, 'w') as f:
            yaml.safe_dump(doc, f)
        e = self.assertRaises(gabbi_files.GabbiFileError,
                              gabbi_files.load, path)
        self.assertIn("topology 'nope'", str(e))


class WithRunValuesTest(testtools.TestCase):

    def test_values_are_written_into_keys_and_values(self):
        data = {'tests': [{
            'GET': "/g/$RUN['PREFIX']-x",
            'query_parameters': {'member_of': ["!$RUN['AGG_A']", 'in:a'],
                                 'n': 3},
            'response_json_paths': {"$.a[?id = \"$RUN['AGG_A']\"]": 1}}]}
        out = gabbi_files.with_run_values(
            data, {'PREFIX': 'conformance-1', 'AGG_A': 'uuid-a'})
        test = out['tests'][0]
        self.assertEqual('/g/conformance-1-x', test['GET'])
        self.assertEqual(['!uuid-a', 'in:a'],
                         test['query_parameters']['member_of'])
        self.assertEqual(3, test['query_parameters']['n'])
        self.assertEqual({'$.a[?id = "uuid-a"]': 1},
                         test['response_json_paths'])

    def test_the_input_is_not_changed(self):
        data = {'tests': [{'GET': "/$RUN['PREFIX']"}]}
        gabbi_files.with_run_values(data, {'PREFIX': 'p'})
        self.assertEqual("/$RUN['PREFIX']", data['tests'][0]['GET'])

    def test_gabbi_substitutions_are_left_to_gabbi(self):
        text = "/g/$HISTORY['a'].$RESPONSE['$.id']"
        self.assertEqual(text, gabbi_files.with_run_values(text, {}))


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

    def test_every_file_of_every_service_loads(self):
        paths = [p for service in gabbi_files.services()
                 for p in gabbi_files.test_files(service)]
        self.assertGreater(len(paths), 10)
        for path in paths:
            gabbi_files.load(path)

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
