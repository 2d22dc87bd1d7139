"""gabbi response handlers that compare sets of resource providers.

Allocation-candidate answers are exact sets: a provider that should have
been excluded and came back is the failure the spec is about, so these
handlers compare the whole set, by the topology's provider names, and say
what is missing and what is unexpected.

Providers that are not part of the test's own topology (a vendor cloud's
real compute nodes, say) are ignored: the assertion is about what the
topology proves.
"""

from gabbi.handlers import base

# uuid -> name for the topology of the test file being run. Set by the
# gabbi test runner before the file runs; a worker runs one file at a time.
PROVIDER_NAMES = {}


def _names(uuids):
    return sorted(PROVIDER_NAMES[u] for u in uuids if u in PROVIDER_NAMES)


def _check_known(test, key, names):
    known = set(PROVIDER_NAMES.values())
    unknown = sorted(set(names) - known)
    if unknown:
        test.fail('%s names providers %s that the topology does not have '
                  '(it has %s)' % (key, unknown, sorted(known)))


class _ExactSetHandler(base.ResponseHandler):
    # gabbi concatenates list-valued keys onto their default, so the default
    # must be a list; an empty list means "not used". Assert an empty
    # answer with a `len` JSON path instead.
    test_key_value = []

    def __call__(self, test):
        expected = test.test_data[self._key]
        if not expected:
            return
        if not isinstance(expected, list):
            test.fail('%s must be a list' % self._key)
        self.compare(test, expected)

    def _assert_equal_sets(self, test, what, expected, got):
        expected, got = set(expected), set(got)
        if expected == got:
            return
        test.fail(
            '%s: expected %s, got %s; missing %s, unexpected %s' % (
                what, sorted(expected), sorted(got),
                sorted(expected - got) or 'none',
                sorted(got - expected) or 'none'))


class CandidateProviders(_ExactSetHandler):
    """response_candidate_providers: [name, ...]

    The providers that appear in any allocation request, exactly.
    """
    test_key_suffix = 'candidate_providers'

    def compare(self, test, expected):
        _check_known(test, self._key, expected)
        uuids = set()
        for areq in test.response_data.get('allocation_requests', []):
            uuids.update(areq['allocations'])
        self._assert_equal_sets(
            test, 'providers in allocation requests', expected,
            _names(uuids))


class AllocationRequests(_ExactSetHandler):
    """response_allocation_requests: [[name, ...], ...]

    The allocation requests, each as the set of providers it allocates
    from, exactly (order-free).
    """
    test_key_suffix = 'allocation_requests'

    def compare(self, test, expected):
        for combo in expected:
            _check_known(test, self._key, combo)
        got = set()
        for areq in test.response_data.get('allocation_requests', []):
            names = _names(areq['allocations'])
            if names:
                got.add('+'.join(names))
        self._assert_equal_sets(
            test, 'allocation requests (providers joined by +)',
            ['+'.join(sorted(c)) for c in expected], got)


class ListedProviders(_ExactSetHandler):
    """response_listed_providers: [name, ...]

    The topology's providers listed by GET /resource_providers, exactly.
    """
    test_key_suffix = 'listed_providers'

    def compare(self, test, expected):
        _check_known(test, self._key, expected)
        uuids = [rp['uuid']
                 for rp in test.response_data.get('resource_providers', [])]
        self._assert_equal_sets(
            test, 'providers listed', expected, _names(uuids))


HANDLERS = [CandidateProviders, AllocationRequests, ListedProviders]
