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

"""pep8 check: every capability can be broken by a mutant, or says why not.

Each mutant (in its service's folder, cloud/services/<name>/) names the
capabilities it targets; each capability in guidelines/ is the target of
at least one mutant or carries
`no_mutant: <why none can exist>`. A target that names no capability, or
a capability with both a mutant and a no_mutant reason, is an error too,
and so is a mutant none of whose targets is expected to pass in the
profile it runs in (nothing could kill it: `conformance mutants` would
stop there, many minutes into CI).

An expected-fail capability is mutation-tested twice, and no_mutant is
refused for it (a patch of its spec reference can always break the rule
again): a mutant on the spec-reference profile proves its tests can fail
where they can pass, and a wrong-reason mutant (on the profile it is
expected to fail in) proves its signature names upstream's cause and not
any failure of the same test.
"""

import sys

from conformance_tests.cloud import mutants
from conformance_tests.cloud import profiles
from conformance_tests.report import build
from conformance_tests.report import guidelines
from conformance_tests.report import mutants as mutant_rules


def problems(capabilities, known_mutants):
    found = []
    by_id = {c['id']: c for c in capabilities}
    targeted = {}
    for mutant in known_mutants:
        for target in mutant_rules.unknown_targets(mutant, by_id):
            found.append('mutant %s targets %s, which no guideline '
                         'defines' % (mutant.name, target))
        for target in mutant.targets:
            targeted.setdefault(target, []).append(mutant.name)
        found += _unkillable(mutant, by_id)
    for cap in capabilities:
        if cap.get('expected_fail'):
            found += _expected_fail_problems(cap, known_mutants)
            continue
        if cap['no_mutant'] and cap['id'] in targeted:
            found.append('%s says no mutant can exist (%s) but %s targets '
                         'it' % (cap['id'], cap['no_mutant'],
                                 ', '.join(targeted[cap['id']])))
        elif not cap['no_mutant'] and cap['id'] not in targeted:
            found.append('%s: no mutant targets it; add one to a '
                         'service\'s mutants or say why none can exist '
                         'with no_mutant: in its guideline' % cap['id'])
    return found


def _expected_fail_problems(cap, known_mutants):
    aimed = [m for m in known_mutants if cap['id'] in m.targets]
    found = []
    if cap['no_mutant']:
        found.append('%s is expected-fail: its spec reference can be '
                     'broken again, so no_mutant is refused; register a '
                     'mutant with profile=\'%s\' instead' % (
                         cap['id'], build.SPEC_REFERENCE))
    if not any(profiles.is_spec_reference(m.profile) and not m.wrong_reason
               for m in aimed):
        found.append('%s is expected-fail but no mutant breaks it on the '
                     '%s profile: add one (profile=\'%s\') so its tests '
                     'are shown to fail where they can pass' % (
                         cap['id'], build.SPEC_REFERENCE,
                         build.SPEC_REFERENCE))
    if not any(m.wrong_reason for m in aimed):
        found.append('%s is expected-fail but no wrong-reason mutant '
                     'targets it: add one (wrong_reason=True) that fails '
                     'its tests for another cause, so the report is shown '
                     'to judge that fail, not expected-fail' % cap['id'])
    return found


def _unkillable(mutant, by_id):
    profile = mutant_rules.mutant_profile(mutant, profiles.DEFAULT)
    if profile not in profiles.PROFILES:
        return ['mutant %s runs in profile %s, which does not exist '
                '(known: %s)' % (mutant.name, profile,
                                 ', '.join(profiles.names()))]
    known = [t for t in mutant.targets if t in by_id]
    if known and mutant.wrong_reason and not mutant_rules.judged_targets(
            mutant, by_id, profile):
        return ['mutant %s is wrong-reason but no target is expected to '
                'fail in profile %s: it can only be judged against an '
                'expected-fail signature' % (mutant.name, profile)]
    if known and not mutant_rules.judged_targets(mutant, by_id, profile):
        return ['mutant %s: every target is expected to fail in profile '
                '%s, so nothing can kill it; if only the spec reference '
                'keeps its rule, register it with profile=\'%s\'' % (
                    mutant.name, profile, build.SPEC_REFERENCE)]
    return []


def main():
    found = problems(guidelines.load_all(), mutants.all_mutants())
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
