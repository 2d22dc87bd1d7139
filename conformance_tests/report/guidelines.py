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

"""Capabilities from guidelines/*.yaml, interop-guideline style.

A capability names the spec rule, the tests behind it (by idempotent id)
and what is expected of it where that is not a plain pass:

    expected_fail:            # upstream itself gets the rule wrong
      reason: why, in one sentence
      signature: 'regex the failing assertion must match'
    expect:                   # per run profile (legacy-quota, ...)
      legacy-quota:
        status: fail          # or partial: the tests skip there
        signature: 'regex of the assertion (fail) or skip message (partial)'
    by_release:               # an older series (cloud/releases.py) where
      '2024.1':               # upstream did otherwise than today
        status: pass          # or fail / partial, with a signature
        reason: the upstream change that makes the difference
    no_mutant: why no mutant can break this rule   # else a mutant targets it
    by_deployment:            # a packaged deployment (conformance packaged)
      debian13-2025.1:        # whose verdict differs from the embedded
        status: not-applicable    # cloud's of its series, and why
        reason: what the deployment lacks or does otherwise

``by_deployment`` may also sit at the top of a file: it then applies to
each of the file's capabilities (a capability's own entry wins).

The top of a file names the ``service`` (catalog type) the feature
belongs to and, in ``uses``, the other catalog types its tests call (a
boot needs an image); a mutant's embedded cloud runs only those and what
they depend on (cmd/mutants.py).

An expectation without a signature is refused: a failure is expected only
when it is the failure the guideline names.
"""

import glob
import os
import re

import yaml

from conformance_tests.cloud import releases
from conformance_tests.common import paths

# What a profile may expect of a capability instead of 'pass'.
EXPECTABLE = ('fail', 'partial')
# What a release may expect: also 'pass', where today's upstream fails.
RELEASE_EXPECTABLE = ('pass',) + EXPECTABLE


# What a packaged deployment may show instead of its series' embedded
# verdict (report statuses).
DEPLOYMENT_STATUSES = ('not-applicable', 'pass', 'expected-fail', 'partial')


class GuidelineError(ValueError):
    pass


def _deployment_expectations(where, raw):
    """{deployment: {status, reason}}: each with a reason, since a
    difference from the embedded cloud is explained or is a failure."""
    if not isinstance(raw, dict):
        raise GuidelineError('%s: by_deployment is a mapping of deployment '
                             'names' % where)
    found = {}
    for name, entry in raw.items():
        if not isinstance(entry, dict) or not entry.get('reason'):
            raise GuidelineError('%s: by_deployment.%s needs status and '
                                 'reason' % (where, name))
        if entry.get('status') not in DEPLOYMENT_STATUSES:
            raise GuidelineError('%s: by_deployment.%s: status %r; expected '
                                 'one of %s' % (where, name,
                                                entry.get('status'), ', '.join(
                                                    DEPLOYMENT_STATUSES)))
        found[str(name)] = {'status': entry['status'],
                            'reason': entry['reason'].strip()}
    return found


def _expectation(where, raw):
    if not isinstance(raw, dict):
        raise GuidelineError('%s: an expectation is a mapping with status '
                             'and signature' % where)
    status = raw.get('status', 'fail')
    if status not in EXPECTABLE:
        raise GuidelineError('%s: status %r; expected one of %s' % (
            where, status, ', '.join(EXPECTABLE)))
    signature = raw.get('signature')
    if not signature:
        raise GuidelineError('%s: no signature: name the assertion (or skip '
                             'message) the expected %s must show' % (
                                 where, status))
    try:
        re.compile(signature)
    except re.error as e:
        raise GuidelineError('%s: signature is not a regex: %s' % (where, e))
    return {'status': status, 'signature': signature,
            'reason': raw.get('reason') or ''}


def _release_expectation(where, raw):
    """A series' own expectation: a pass needs only its reason, which
    names the upstream change between that series and today's."""
    if not isinstance(raw, dict) or not raw.get('reason'):
        raise GuidelineError('%s: a release expectation is a mapping with '
                             'status and reason (the upstream change that '
                             'makes the difference)' % where)
    status = raw.get('status')
    if status not in RELEASE_EXPECTABLE:
        raise GuidelineError('%s: status %r; expected one of %s' % (
            where, status, ', '.join(RELEASE_EXPECTABLE)))
    if status == 'pass':
        return {'status': 'pass', 'signature': None,
                'reason': raw['reason']}
    return _expectation(where, raw)


def _services(name, doc):
    """The catalog types a file's tests call, its ``service`` first; None
    when it names no service (its mutants' clouds run every service)."""
    uses = doc.get('uses') or []
    if 'service' not in doc and not uses:
        return None
    if not isinstance(doc.get('service'), str) or not isinstance(
            uses, list) or not all(isinstance(u, str) for u in uses):
        raise GuidelineError('%s: service is a catalog type and uses a list '
                             'of them (the other services its tests call)'
                             % name)
    return [doc['service']] + [u for u in uses if u != doc['service']]


def _capability(name, doc, cap, services):
    for key in ('id', 'rule', 'tests'):
        if not cap.get(key):
            raise GuidelineError('%s: a capability lacks %s' % (name, key))
    where = '%s: %s' % (name, cap['id'])
    expect = {}
    for profile, raw in (cap.get('expect') or {}).items():
        expect[profile] = _expectation(
            '%s: expect.%s' % (where, profile), raw)
    by_release = {}
    for series, raw in (cap.get('by_release') or {}).items():
        if str(series) not in releases.OLDER:
            raise GuidelineError('%s: by_release.%s: not an older series '
                                 'the cloud can run (%s)' % (
                                     where, series, ', '.join(releases.OLDER)))
        by_release[str(series)] = _release_expectation(
            '%s: by_release.%s' % (where, series), raw)
    expected_fail = None
    if cap.get('expected_fail'):
        expected_fail = _expectation('%s: expected_fail' % where,
                                     dict(cap['expected_fail'],
                                          status='fail'))
        if not expected_fail['reason']:
            raise GuidelineError('%s: expected_fail needs a reason' % where)
    return {
        'id': cap['id'], 'seed': doc['seed'], 'feature': doc['feature'],
        'services': services,
        'rule': cap['rule'], 'tests': [str(t) for t in cap['tests']],
        'expected_fail': expected_fail, 'expect': expect,
        'by_release': by_release,
        'no_mutant': cap.get('no_mutant') or None,
        'by_deployment': dict(
            _deployment_expectations(name, doc.get('by_deployment') or {}),
            **_deployment_expectations(where, cap.get('by_deployment') or {})),
        'disruptive': bool(cap.get('disruptive', False)),
    }


def guideline_files(directory=None):
    """guidelines/*.yaml, then the capability files the registered APIs
    keep beside their packages (services/api.py); only ``directory``'s
    when one is given."""
    if directory:
        return sorted(glob.glob(os.path.join(directory, '*.yaml')))
    from conformance_tests import services
    return sorted(glob.glob(os.path.join(
        paths.data_path('guidelines'), '*.yaml'))) + list(
            services.guideline_files())


def load_all(directory=None):
    """All capabilities, in file order, each with its seed and feature."""
    capabilities = []
    seen = {}
    for path in guideline_files(directory):
        name = os.path.basename(path)
        with open(path) as f:
            doc = yaml.safe_load(f) or {}
        for key in ('seed', 'feature', 'capabilities'):
            if not isinstance(doc, dict) or not doc.get(key):
                raise GuidelineError('%s: no %s:' % (name, key))
        services = _services(name, doc)  # the file's, once
        for cap in doc['capabilities']:
            entry = _capability(name, doc, cap, services)
            if entry['id'] in seen:
                raise GuidelineError('%s: capability %s is also in %s' % (
                    name, entry['id'], seen[entry['id']]))
            seen[entry['id']] = name
            capabilities.append(entry)
    return capabilities


def seed_number(cap):
    """'003' for seed file '003_38a21fbdc4036100.txt'."""
    return cap['seed'].split('_', 1)[0]


def select(capabilities, seeds=(), capability_ids=()):
    """The ids of the capabilities in scope: all when nothing is named.

    Raises GuidelineError naming what matched nothing, so that a typo in
    a job's --seed can never select an empty, vacuously green scope.
    """
    seeds = [s.split('_', 1)[0] for s in seeds or ()]
    capability_ids = list(capability_ids or ())
    known_seeds = sorted(set(seed_number(c) for c in capabilities))
    for seed in seeds:
        if seed not in known_seeds:
            raise GuidelineError('--seed %s: no such seed in guidelines/ '
                                 '(known: %s)' % (seed,
                                                  ', '.join(known_seeds)))
    known_ids = set(c['id'] for c in capabilities)
    for cap_id in capability_ids:
        if cap_id not in known_ids:
            raise GuidelineError('--capability %s: no such capability in '
                                 'guidelines/' % cap_id)
    if not seeds and not capability_ids:
        return [c['id'] for c in capabilities]
    return [c['id'] for c in capabilities
            if seed_number(c) in seeds or c['id'] in capability_ids]


def test_ids(capabilities, scope):
    """Idempotent ids of the tests behind the capabilities in scope."""
    ids = []
    for cap in capabilities:
        if cap['id'] in scope:
            ids.extend(t for t in cap['tests'] if t not in ids)
    return ids
