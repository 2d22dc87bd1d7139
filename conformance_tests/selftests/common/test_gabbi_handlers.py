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

"""common/gabbi_handlers.py: exact-set assertions on provider names."""

import testtools

from conformance_tests.common import gabbi_handlers

# uuid -> topology name, as the gabbi runner gives it to the handlers.
NAMES = {
    'u-cn1': 'cn1',
    'u-numa1': 'numa1',
    'u-cn2': 'cn2',
    'u-ss1': 'ss1',
}


class FakeTest(object):
    """The parts of a gabbi test case the handlers use."""

    def __init__(self, key, expected, response_data):
        self.test_data = {'name': 'fake', key: expected}
        self.response_data = response_data

    def fail(self, msg):
        raise AssertionError(msg)


def _candidates(*requests):
    """allocation_requests with the given provider uuids per request."""
    return {'allocation_requests': [
        {'allocations': {u: {'resources': {'X': 1}} for u in uuids}}
        for uuids in requests]}


def _listed(*uuids):
    return {'resource_providers': [{'uuid': u, 'name': 'n-' + u}
                                   for u in uuids]}


class HandlerTestBase(testtools.TestCase):
    handler_class = None

    def setUp(self):
        super().setUp()
        self.handler = self.handler_class(NAMES)

    def run_handler(self, expected, response_data):
        test = FakeTest(self.handler._key, expected, response_data)
        self.handler(test)

    def assert_fails(self, expected, response_data, *fragments):
        e = self.assertRaises(AssertionError, self.run_handler, expected,
                              response_data)
        for fragment in fragments:
            self.assertIn(fragment, str(e))
        return str(e)


class RegistrationTest(testtools.TestCase):

    def test_handlers_register_their_response_keys(self):
        keys = sorted(h()._key for h in gabbi_handlers.HANDLERS)
        self.assertEqual(['response_allocation_requests',
                          'response_candidate_providers',
                          'response_listed_providers'], keys)

    def test_default_value_is_an_empty_list(self):
        for cls in gabbi_handlers.HANDLERS:
            handler = cls()
            self.assertEqual({handler._key: []}, handler.test_base)

    def test_set_keys_are_the_handlers_keys(self):
        self.assertEqual(
            sorted(h()._key for h in gabbi_handlers.HANDLERS),
            sorted(gabbi_handlers.SET_KEYS))


class NoSharedStateTest(testtools.TestCase):
    """Names reach a handler through its constructor, one set per run."""

    def test_no_module_global_of_names(self):
        self.assertFalse(hasattr(gabbi_handlers, 'PROVIDER_NAMES'))

    def test_two_runs_do_not_see_each_others_names(self):
        first = gabbi_handlers.for_run({'u-a': 'a'})
        second = gabbi_handlers.for_run({'u-b': 'b'})
        answer = _candidates(['u-a'])
        first[0](FakeTest(first[0]._key, ['a'], answer))
        # For the second run u-a is a foreign provider: ignored, so 'b'
        # is missing.
        e = self.assertRaises(AssertionError, second[0],
                              FakeTest(second[0]._key, ['b'], answer))
        self.assertIn("missing ['b']", str(e))

    def test_for_run_makes_one_of_each(self):
        made = gabbi_handlers.for_run(NAMES)
        self.assertEqual([type(h) for h in made], gabbi_handlers.HANDLERS)
        for handler in made:
            self.assertEqual(NAMES, handler.provider_names)


class CandidateProvidersTest(HandlerTestBase):
    handler_class = gabbi_handlers.CandidateProviders

    def test_equal_sets_pass(self):
        self.run_handler(['cn1', 'numa1', 'ss1'], _candidates(
            ['u-cn1', 'u-numa1'], ['u-cn1', 'u-ss1']))

    def test_order_does_not_matter(self):
        self.run_handler(['ss1', 'cn1'], _candidates(['u-ss1', 'u-cn1']))

    def test_extra_provider_fails_as_unexpected(self):
        msg = self.assert_fails(['cn1'], _candidates(['u-cn1'], ['u-cn2']),
                                'unexpected')
        self.assertIn("unexpected ['cn2']", msg)
        self.assertIn('missing none', msg)

    def test_missing_provider_fails_as_missing(self):
        msg = self.assert_fails(['cn1', 'cn2'], _candidates(['u-cn1']),
                                'missing')
        self.assertIn("missing ['cn2']", msg)
        self.assertIn('unexpected none', msg)

    def test_empty_answer_fails_as_missing(self):
        self.assert_fails(['cn1'], {'allocation_requests': []}, 'missing')

    def test_name_not_in_topology_fails(self):
        self.assert_fails(['cn1', 'cn9'], _candidates(['u-cn1']),
                          'does not have', 'cn9')

    def test_foreign_providers_are_ignored(self):
        self.run_handler(['cn1'], _candidates(
            ['u-cn1', 'vendor-compute'], ['vendor-other']))

    def test_empty_expected_list_is_not_used(self):
        # gabbi's default for the key; the loader refuses it written out.
        self.run_handler([], _candidates(['u-cn1']))

    def test_non_list_expected_fails(self):
        self.assert_fails('cn1', _candidates(['u-cn1']), 'must be a list')

    def test_none_passes_on_an_empty_answer(self):
        self.run_handler('none', {'allocation_requests': []})

    def test_none_fails_when_a_topology_provider_comes_back(self):
        self.assert_fails('none', _candidates(['u-cn1']),
                          "unexpected ['cn1']")

    def test_none_ignores_foreign_providers(self):
        self.run_handler('none', _candidates(['vendor-compute']))

    def test_none_fails_without_the_list(self):
        # A 200 with some other body must not pass as "no candidates".
        self.assert_fails('none', {'errors': []},
                          'no allocation_requests list')

    def test_list_fails_without_the_list(self):
        self.assert_fails(['cn1'], {}, 'no allocation_requests list')


class AllocationRequestsTest(HandlerTestBase):
    handler_class = gabbi_handlers.AllocationRequests

    def test_equal_sets_pass(self):
        self.run_handler([['cn1', 'ss1'], ['numa1']], _candidates(
            ['u-ss1', 'u-cn1'], ['u-numa1']))

    def test_order_inside_a_request_does_not_matter(self):
        self.run_handler([['ss1', 'cn1']], _candidates(['u-cn1', 'u-ss1']))

    def test_extra_request_fails_as_unexpected(self):
        self.assert_fails([['cn1']], _candidates(['u-cn1'], ['u-cn2']),
                          'unexpected', 'cn2')

    def test_missing_request_fails_as_missing(self):
        self.assert_fails([['cn1'], ['cn2']], _candidates(['u-cn1']),
                          'missing', 'cn2')

    def test_different_combination_fails(self):
        self.assert_fails([['cn1', 'ss1']], _candidates(['u-cn1']),
                          'missing', 'cn1+ss1', 'unexpected')

    def test_name_not_in_topology_fails(self):
        self.assert_fails([['cn1', 'ghost']], _candidates(['u-cn1']),
                          'does not have', 'ghost')

    def test_foreign_providers_are_ignored(self):
        self.run_handler([['cn1']], _candidates(
            ['u-cn1', 'vendor-sharing'], ['vendor-compute']))

    def test_empty_expected_list_is_not_used(self):
        self.run_handler([], _candidates(['u-cn1']))

    def test_none_passes_when_no_request_uses_the_topology(self):
        self.run_handler('none', _candidates(['vendor-compute']))

    def test_none_fails_on_a_topology_request(self):
        self.assert_fails('none', _candidates(['u-cn1', 'u-ss1']),
                          'unexpected', 'cn1+ss1')


class ListedProvidersTest(HandlerTestBase):
    handler_class = gabbi_handlers.ListedProviders

    def test_equal_sets_pass(self):
        self.run_handler(['cn1', 'cn2'], _listed('u-cn2', 'u-cn1'))

    def test_extra_provider_fails_as_unexpected(self):
        self.assert_fails(['cn1'], _listed('u-cn1', 'u-ss1'),
                          'unexpected', 'ss1')

    def test_missing_provider_fails_as_missing(self):
        self.assert_fails(['cn1', 'numa1'], _listed('u-cn1'),
                          'missing', 'numa1')

    def test_name_not_in_topology_fails(self):
        self.assert_fails(['nope'], _listed('u-cn1'), 'does not have')

    def test_foreign_providers_are_ignored(self):
        self.run_handler(['cn1'], _listed('u-cn1', 'vendor-compute'))

    def test_empty_expected_list_is_not_used(self):
        self.run_handler([], _listed('u-cn1', 'u-cn2'))

    def test_missing_list_in_response_fails(self):
        self.assert_fails(['cn1'], {}, 'no resource_providers list')

    def test_none_passes_when_no_topology_provider_is_listed(self):
        self.run_handler('none', _listed('vendor-compute'))

    def test_none_fails_when_a_topology_provider_is_listed(self):
        self.assert_fails('none', _listed('u-cn2'), "unexpected ['cn2']")
