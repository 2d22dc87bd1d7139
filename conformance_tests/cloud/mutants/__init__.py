"""Deliberate spec violations patched into the real upstream services.

A mutant is switched on at launch (`conformance cloud up --mutant NAME`) and
patches the service's own code inside its process before the app is built.
The suite must pass on the clean cloud and fail on every mutant; a mutant
that survives shows a hole in the suite, never a reason to weaken the
mutant.
"""

import collections

Mutant = collections.namedtuple(
    'Mutant', 'name service rule apply scope')

_REGISTRY = {}

# The tests that can see the mutants of one seed. A mutant runs only
# these, which keeps `conformance mutants` short; what they kill is killed.
SEED_003_TESTS = r'^conformance_tests\.api\.placement\.'
SEED_000_TESTS = (r'^conformance_tests\.(api\.compute\.|'
                  r'scenario\.test_server_group_spread\.)')
SEED_001_TESTS = (r'^conformance_tests\.scenario\.'
                  r'(test_quota_from_placement|test_down_cell_views)\.')


def register(name, service, scope, rule):
    """Decorator: register ``apply()`` as the patch for mutant ``name`` of
    ``service``; ``scope`` is the regex of the tests run against it and
    ``rule`` the spec rule it breaks."""
    def wrap(func):
        if name in _REGISTRY:
            raise ValueError('mutant %s registered twice' % name)
        _REGISTRY[name] = Mutant(name, service, rule, func, scope)
        return func
    return wrap


def _load():
    # Importing the modules registers their mutants.
    from conformance_tests.cloud.mutants import nova  # noqa: F401
    from conformance_tests.cloud.mutants import nova_quota  # noqa: F401
    from conformance_tests.cloud.mutants import placement  # noqa: F401


def all_mutants():
    _load()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def get(name):
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise LookupError('unknown mutant %r; known: %s' % (
            name, ', '.join(sorted(_REGISTRY))))


def apply(name, service):
    """Apply mutant ``name`` if it belongs to ``service``."""
    if not name:
        return
    mutant = get(name)
    if mutant.service == service:
        mutant.apply()
