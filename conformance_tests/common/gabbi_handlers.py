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

"""gabbi response handlers that compare sets of resource providers.

Allocation-candidate answers are exact sets: a provider that should have
been excluded and came back is the failure the spec is about, so these
handlers compare the whole set, by the topology's provider names, and say
what is missing and what is unexpected.

Providers that are not part of the test's own topology (a vendor cloud's
real compute nodes, say) are ignored: the assertion is about what the
topology proves.

Each key takes a non-empty list, or the word ``none``: the answer must
carry its list (``allocation_requests`` / ``resource_providers``) and no
entry of it may involve a provider of the topology. An empty list would
assert nothing, so the file loader refuses it (gabbi_files).

The runner makes one set of handler instances per file run and gives them
that run's provider names, so nothing is shared between files or workers.
"""

from gabbi.handlers import base

NONE = 'none'


class _ExactSetHandler(base.ResponseHandler):
    # gabbi concatenates list-valued keys onto their default, so the default
    # must be a list; an empty list means "key not used" (the loader refuses
    # an explicit empty list).
    test_key_value = []
    # The list in the answer that this handler reads.
    answer_key = None

    def __init__(self, provider_names=None):
        super().__init__()
        # uuid -> topology name for the file being run.
        self.provider_names = dict(provider_names or {})

    def __call__(self, test):
        expected = test.test_data[self._key]
        if not expected:
            return
        if expected != NONE and not isinstance(expected, list):
            test.fail('%s must be a list of provider names or "%s", not %r'
                      % (self._key, NONE, expected))
        answer = test.response_data if isinstance(
            test.response_data, dict) else {}
        if not isinstance(answer.get(self.answer_key), list):
            test.fail('%s: the answer has no %s list to compare' % (
                self._key, self.answer_key))
        if expected == NONE:
            expected = []
        else:
            self.check_known(test, expected)
        self.compare(test, expected, answer[self.answer_key])

    def names(self, uuids):
        return sorted(self.provider_names[u] for u in uuids
                      if u in self.provider_names)

    def _check_known_names(self, test, names):
        known = set(self.provider_names.values())
        unknown = sorted(set(names) - known)
        if unknown:
            test.fail('%s names providers %s that the topology does not '
                      'have (it has %s)' % (self._key, unknown, sorted(known)))

    def check_known(self, test, expected):
        self._check_known_names(test, expected)

    def _assert_equal_sets(self, test, what, expected, got):
        expected, got = set(expected), set(got)
        if expected == got:
            return
        test.fail(
            '%s: expected %s, got %s; missing %s, unexpected %s' % (
                what, sorted(expected) or NONE, sorted(got) or NONE,
                sorted(expected - got) or NONE,
                sorted(got - expected) or NONE))


class CandidateProviders(_ExactSetHandler):
    """response_candidate_providers: [name, ...] | none

    The providers that appear in any allocation request, exactly.
    """
    test_key_suffix = 'candidate_providers'
    answer_key = 'allocation_requests'

    def compare(self, test, expected, allocation_requests):
        uuids = set()
        for areq in allocation_requests:
            uuids.update(areq['allocations'])
        self._assert_equal_sets(
            test, 'providers in allocation requests', expected,
            self.names(uuids))


class AllocationRequests(_ExactSetHandler):
    """response_allocation_requests: [[name, ...], ...] | none

    The allocation requests, each as the set of providers it allocates
    from, exactly (order-free).
    """
    test_key_suffix = 'allocation_requests'
    answer_key = 'allocation_requests'

    def check_known(self, test, expected):
        for combo in expected:
            self._check_known_names(test, combo)

    def compare(self, test, expected, allocation_requests):
        got = set()
        for areq in allocation_requests:
            names = self.names(areq['allocations'])
            if names:
                got.add('+'.join(names))
        self._assert_equal_sets(
            test, 'allocation requests (providers joined by +)',
            ['+'.join(sorted(c)) for c in expected], got)


class ListedProviders(_ExactSetHandler):
    """response_listed_providers: [name, ...] | none

    The topology's providers listed by GET /resource_providers, exactly.
    """
    test_key_suffix = 'listed_providers'
    answer_key = 'resource_providers'

    def compare(self, test, expected, resource_providers):
        self._assert_equal_sets(
            test, 'providers listed', expected,
            self.names(rp['uuid'] for rp in resource_providers))


HANDLERS = [CandidateProviders, AllocationRequests, ListedProviders]
SET_KEYS = tuple('response_' + h.test_key_suffix for h in HANDLERS)


def for_run(provider_names):
    """Handler instances for one file run, knowing its provider names."""
    return [h(provider_names) for h in HANDLERS]
