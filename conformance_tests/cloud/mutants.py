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

"""Deliberate spec violations patched into the real upstream services.

A mutant is switched on at launch (`conformance cloud up --mutant NAME`) and
patches the service's own code inside its process before the app is built.
The suite must pass on the clean cloud and fail on every mutant; a mutant
that survives shows a hole in the suite, never a reason to weaken the
mutant.
"""

import collections

# profile: the run profile the mutant is applied in; None is the run's
# own (default). 'spec-reference' for a rule upstream already breaks (its
# capability is expected-fail there): only the spec reference keeps that
# rule, so the mutant breaks it on top of the references.
# leaves: the inventory kinds (inventory/listing.py) the broken rule itself
# changes for good, when the rule is about what a cloud gives back (a host
# a lease ends is the freepool's again): `conformance mutants --inventory`
# does not count those against the tests.
# wrong_reason: the mutant makes an expected-fail capability's tests fail
# for a cause other than the one its guideline's signature names (blazar
# erroring every lease, senlin refusing every attach). It is killed only
# when the report would judge that capability `fail`, by an assertion
# that does not match the signature: a signature that also matches a
# wrong cause lets it survive.
Mutant = collections.namedtuple(
    'Mutant', 'name service rule apply targets profile leaves wrong_reason',
    defaults=(None, (), False))

_REGISTRY = {}


def register(name, service, targets, rule, profile=None, leaves=(),
             wrong_reason=False):
    """Decorator: register ``apply()`` as the patch for mutant ``name`` of
    ``service``. ``targets`` are the ids of the capabilities (guidelines/)
    whose rule it breaks: the mutant runs their tests and is killed only
    when one of them fails an assertion. ``rule`` is the spec rule, said
    the way the spec says it (for a wrong-reason mutant: the other cause
    it brings). ``profile``, ``leaves``, ``wrong_reason``: see Mutant."""
    def wrap(func):
        if name in _REGISTRY:
            raise ValueError('mutant %s registered twice' % name)
        if not targets:
            raise ValueError('mutant %s names no target capability' % name)
        _REGISTRY[name] = Mutant(name, service, rule, func, tuple(targets),
                                 profile, tuple(leaves), bool(wrong_reason))
        return func
    return wrap


Reference = collections.namedtuple(
    'Reference', 'name service rule apply capabilities')

_REFERENCES = {}


def reference(name, service, capabilities, rule):
    """Decorator: register ``apply()`` as a *spec reference* of ``service``.

    The mirror of a mutant: the smallest patch of upstream that does what
    the spec says where upstream does not. Every reference of a service is
    applied when the cloud runs the `spec-reference` profile, never
    otherwise; ``capabilities`` are the expected-fail capabilities it
    makes passable (guidelines/ must mark each one expected_fail).
    """
    def wrap(func):
        if name in _REFERENCES or name in _REGISTRY:
            raise ValueError('patch %s registered twice' % name)
        if not capabilities:
            raise ValueError('reference %s names no capability' % name)
        _REFERENCES[name] = Reference(name, service, rule, func,
                                      tuple(capabilities))
        return func
    return wrap


def _load():
    # Importing a service's mutants modules (named by its descriptor)
    # registers its mutants and references.
    import importlib

    from conformance_tests.cloud import services
    for descriptor in services.all():
        for module in descriptor.mutants_modules:
            importlib.import_module(module)


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


def all_references():
    _load()
    return [_REFERENCES[n] for n in sorted(_REFERENCES)]


def apply(name, service):
    """Apply mutant ``name`` if it belongs to ``service``."""
    if not name:
        return
    mutant = get(name)
    if mutant.service == service:
        mutant.apply()


def apply_references(service):
    """Apply every spec reference of ``service`` (spec-reference profile)."""
    for ref in all_references():
        if ref.service == service:
            ref.apply()
