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

"""When a mutant is killed: the rules, as pure functions.

A mutant (cloud/mutants.py) breaks one spec rule and names the
capabilities whose tests must catch it (its targets). The rules:
- It runs in its own profile if it has one (a rule only the spec
  reference keeps), else in the run's.
- Only a target expected to pass in that profile can kill it; one
  expected to fail or skip there fails whether or not the mutant is on.
- It is killed only by a test of such a target that failed an assertion
  (results.ASSERTION). An error (a timeout, a refused connection, a
  set-up failure) says nothing about the rule and never kills.
- An assertion failure of another capability is collateral: recorded,
  never a kill.
- A wrong-reason mutant (``wrong_reason``) instead targets capabilities
  expected to *fail* in its profile, by making their tests fail for
  another cause. It is killed only by a test of such a target that failed
  an assertion *not* matching the guideline's signature: the failure the
  report judges `fail`, not `expected-fail`. One that survives shows a
  signature loose enough to pass a different bug off as upstream's.

`conformance mutants` (cmd/mutants.py) runs the mutants and prints these
outcomes; tools/check_mutants.py refuses, before any cloud starts, a
mutant that nothing could kill.
"""

import re

from conformance_tests.report import build
from conformance_tests.report import results as results_mod


def in_scope(mutants, capability_ids):
    """The mutants with a target among these capabilities, in order."""
    wanted = set(capability_ids)
    return [m for m in mutants if set(m.targets) & wanted]


def unknown_targets(mutant, by_id):
    """The targets of a mutant that no capability of ``by_id`` is."""
    return [t for t in mutant.targets if t not in by_id]


def cloud_services(mutant, by_id):
    """(catalog types, processes) a mutant's embedded cloud must serve:
    what its targets' tests call (guidelines' service and uses) and the
    process its patch runs in; None (every service) when a target's
    guideline names no service."""
    types = set()
    for target in mutant.targets:
        services = by_id[target].get('services')
        if not services:
            return None
        types.update(services)
    return sorted(types), [mutant.service]


def mutant_profile(mutant, run_profile):
    """The profile a mutant runs in: its own (a rule only the spec
    reference keeps) or the run's."""
    return mutant.profile or run_profile


def judged_targets(mutant, by_id, profile, release=None):
    """The targets a kill can come from: those expected to pass in
    ``profile`` on ``release`` (build.expectation; for a wrong-reason
    mutant: those expected to fail)."""
    wanted = 'fail' if getattr(mutant, 'wrong_reason', False) else 'pass'
    return [t for t in mutant.targets if t in by_id and build.expectation(
        by_id[t], profile, release)['status'] == wanted]


def _kills(cap, results, mutant, profile, release=None):
    """Whether a test of ``cap`` failed an assertion that counts against
    ``mutant``: any assertion, or for a wrong-reason mutant one whose
    message does not match the signature expected in ``profile``."""
    failed = [results[t] for t in cap['tests'] if results.get(
        t, {}).get('kind') == results_mod.ASSERTION]
    if not getattr(mutant, 'wrong_reason', False):
        return bool(failed)
    signature = build.expectation(cap, profile, release).get(
        'signature') or ''
    return any(not re.search(signature, r['message'] or '', re.DOTALL)
               for r in failed)


def _error_line(result):
    """'name: first line of the message' of a test that errored, or
    'name: kind' when the message says nothing."""
    lines = (result['message'] or '').strip().splitlines()
    return '%s: %s' % (result['name'],
                       lines[0][:200] if lines else result['kind'])


def mutant_outcome(mutant, capabilities, results, judged, duration=0.0,
                   profile='default', release=None):
    """killed_by: judged targets with a test that failed an assertion
    (see _kills); collateral: other capabilities that did; errors: tests
    that errored (never a kill)."""
    tripped = []
    killed_by = []
    for cap in capabilities:
        if any(results.get(t, {}).get('kind') == results_mod.ASSERTION
               for t in cap['tests']):
            tripped.append(cap['id'])
        if cap['id'] in judged and _kills(cap, results, mutant, profile,
                                          release):
            killed_by.append(cap['id'])
    errors = sorted(_error_line(r) for r in results.values()
                    if r['status'] == 'fail' and
                    r['kind'] != results_mod.ASSERTION)
    return {'name': mutant.name, 'service': mutant.service,
            'rule': mutant.rule, 'targets': list(mutant.targets),
            'wrong_reason': bool(getattr(mutant, 'wrong_reason', False)),
            'killed': bool(killed_by), 'killed_by': killed_by,
            'collateral': [c for c in tripped if c not in mutant.targets],
            'errors': errors,
            'failing_tests': sorted(
                r['name'].rsplit('.', 1)[-1] for r in results.values()
                if r['status'] == 'fail'),
            'duration_s': round(duration, 1)}


def skipped_outcome(mutant, reason):
    """The outcome of a mutant an older series cannot run (cmd/mutants.py
    says why): neither killed nor a survivor."""
    return {'name': mutant.name, 'service': mutant.service,
            'rule': mutant.rule, 'targets': list(mutant.targets),
            'wrong_reason': bool(getattr(mutant, 'wrong_reason', False)),
            'killed': False, 'skipped': reason}


def summarise(outcomes, profile, matrix, duration):
    """The summary of a mutant run (mutants.json): a survivor is a hole
    in the suite; a mutant skipped on an older series is listed apart."""
    skipped = [m['name'] for m in outcomes if m.get('skipped')]
    survived = [m['name'] for m in outcomes
                if not m['killed'] and not m.get('skipped')]
    return {'profile': profile, 'matrix': bool(matrix),
            'mutants': len(outcomes),
            'killed': len(outcomes) - len(survived) - len(skipped),
            'survived': survived, 'skipped': skipped,
            'duration_s': round(duration, 1)}


def describe_left(left, shown=2):
    """One line of what a mutant run's tests left behind (left_by_tests):
    per kind the counts and the first objects, so the error alone says
    what to look for when the run's workdir is gone (as in CI)."""
    parts = []
    for kind, diff in sorted(left.items()):
        objects = ['+%s' % o for o in diff['added']] + [
            '-%s' % o for o in diff['removed']]
        parts.append('%s +%d -%d: %s%s' % (
            kind, len(diff['added']), len(diff['removed']),
            ', '.join(str(o) for o in objects[:shown]),
            ' ...' if len(objects) > shown else ''))
    return '; '.join(parts)


def left_by_tests(mutant, differences):
    """The inventory differences (inventory/listing.py) a mutant run's tests
    are answerable for: all but the kinds the mutant declares its broken
    rule leaves (cloud/mutants.py's ``leaves``); None when no inventory
    was taken."""
    if differences is None:
        return None
    return {kind: diff for kind, diff in differences.items()
            if kind not in mutant.leaves}
