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

"""A mutant is killed only by a failed assertion of a test of a target
(report/mutants.py), and `conformance mutants` says so (cmd/mutants.py).

And every capability is the target of some mutant, or says why not
(tools/check_mutants.py).
"""

import contextlib
import io
import json
import os

import fixtures
import testtools

from conformance_tests.cloud import mutants
from conformance_tests.cmd import mutants as mutants_cmd
from conformance_tests.report import guidelines
from conformance_tests.report import mutants as mutant_rules
from conformance_tests.tools import check_mutants

CAPS = [{'id': 'a', 'tests': ['t-a'], 'no_mutant': None},
        {'id': 'b', 'tests': ['t-b'], 'no_mutant': None},
        {'id': 'c', 'tests': ['t-c'], 'no_mutant': 'a reason'}]
MUTANT = mutants.Mutant('m', 'svc', 'rule', None, ('a',))


def _res(status, kind=None, message='x'):
    return {'name': 'p.C.test', 'status': status, 'kind': kind,
            'message': message, 'requests': 0, 'reason': ''}


class MutantOutcomeTest(testtools.TestCase):

    def outcome(self, results):
        return mutant_rules.mutant_outcome(MUTANT, CAPS, results, judged=['a'])

    def test_assertion_failure_of_a_target_kills(self):
        out = self.outcome({'t-a': _res('fail', 'assertion')})
        self.assertEqual((True, ['a']), (out['killed'], out['killed_by']))

    def test_an_error_of_a_target_does_not_kill(self):
        out = self.outcome({'t-a': _res('fail', 'error', 'Timeout')})
        self.assertFalse(out['killed'])
        self.assertEqual(['p.C.test: Timeout'], out['errors'])

    def test_assertion_failure_outside_the_targets_is_collateral(self):
        out = self.outcome({'t-a': _res('pass'),
                            't-b': _res('fail', 'assertion')})
        self.assertFalse(out['killed'])
        self.assertEqual(['b'], out['collateral'])

    def test_target_expected_to_fail_in_the_profile_cannot_kill(self):
        out = mutant_rules.mutant_outcome(
            MUTANT, CAPS, {'t-a': _res('fail', 'assertion')}, judged=[])
        self.assertFalse(out['killed'])

    def test_outcome_names_targets(self):
        self.assertEqual(['a'], self.outcome({})['targets'])

    def test_an_error_without_a_message_is_named_by_its_kind(self):
        for message in ('', '  \n'):
            out = self.outcome({'t-a': _res('fail', 'error', message)})
            self.assertEqual(['p.C.test: error'], out['errors'])

    def test_an_error_is_named_by_its_first_line(self):
        out = self.outcome({'t-a': _res('fail', 'error',
                                        '\n  Timeout\nafter 60 s')})
        self.assertEqual(['p.C.test: Timeout'], out['errors'])


class MutantScopeTest(testtools.TestCase):

    def test_a_mutant_is_in_scope_when_a_target_is(self):
        other = mutants.Mutant('o', 'svc', 'rule', None, ('b', 'c'))
        self.assertEqual(['m'], [m.name for m in mutant_rules.in_scope(
            [MUTANT, other], ['a'])])
        self.assertEqual(['m', 'o'], [m.name for m in mutant_rules.in_scope(
            [MUTANT, other], ['c', 'a'])])
        self.assertEqual([], mutant_rules.in_scope([MUTANT, other], []))

    def test_unknown_targets(self):
        mutant = mutants.Mutant('m', 'svc', 'rule', None, ('a', 'zz'))
        self.assertEqual(['zz'], mutant_rules.unknown_targets(
            mutant, {c['id']: c for c in CAPS}))


class MutantCloudServicesTest(testtools.TestCase):
    """A mutant's cloud serves what its targets' tests call and the
    process its patch runs in."""

    BY_ID = {'a': {'services': ['compute', 'image']},
             'b': {'services': ['reservation', 'compute', 'image']},
             'c': {'services': None}}

    def test_the_targets_services_and_the_patched_process(self):
        mutant = mutants.Mutant('m', 'nova', 'rule', None, ('a', 'b'))
        self.assertEqual(
            (['compute', 'image', 'reservation'], ['nova']),
            mutant_rules.cloud_services(mutant, self.BY_ID))

    def test_a_target_naming_no_service_runs_every_service(self):
        mutant = mutants.Mutant('m', 'nova', 'rule', None, ('a', 'c'))
        self.assertIsNone(mutant_rules.cloud_services(mutant, self.BY_ID))

    def test_every_registered_mutants_cloud_can_be_served(self):
        from conformance_tests.cloud import services
        by_id = {c['id']: c for c in guidelines.load_all()}
        for mutant in mutants.all_mutants():
            served = [s.name for s in services.serving(
                *mutant_rules.cloud_services(mutant, by_id))]
            self.assertIn(mutant.service, {
                s.process for s in services.all() if s.name in served},
                mutant.name)


class MutantSummaryTest(testtools.TestCase):

    def test_survivors_are_named(self):
        killed = dict(name='k', killed=True)
        survived = dict(name='s', killed=False)
        self.assertEqual(
            {'profile': 'default', 'matrix': False, 'mutants': 2,
             'killed': 1, 'survived': ['s'], 'skipped': [],
             'duration_s': 12.3},
            mutant_rules.summarise([killed, survived], 'default', None,
                                   12.34))

    def test_a_mutant_an_older_series_cannot_run_is_no_survivor(self):
        killed = dict(name='k', killed=True)
        skipped = mutant_rules.skipped_outcome(
            MUTANT, 'its patch target is not in 2024.1 (AttributeError: x)')
        summary = mutant_rules.summarise([killed, skipped], 'default', None,
                                         1.0)
        self.assertEqual((1, [], ['m']), (summary['killed'],
                                          summary['survived'],
                                          summary['skipped']))


class ReleaseJudgedTargetsTest(testtools.TestCase):
    """On an older series a target is judged by that series'
    expectation: a target upstream passes there cannot take a
    wrong-reason kill, and one that passes there can take a plain one."""

    def test_by_release_changes_which_targets_judge(self):
        cap = {'id': 'a', 'tests': ['t-a'],
               'expected_fail': {'status': 'fail', 'signature': 'sig',
                                 'reason': 'r'},
               'expect': {}, 'by_release': {'2024.1': {
                   'status': 'pass', 'signature': None, 'reason': 'r'}}}
        by_id = {'a': cap}
        wrong = mutants.Mutant('w', 'svc', 'rule', None, ('a',),
                               wrong_reason=True)
        self.assertEqual(['a'], mutant_rules.judged_targets(
            wrong, by_id, 'default'))
        self.assertEqual([], mutant_rules.judged_targets(
            wrong, by_id, 'default', '2024.1'))
        self.assertEqual([], mutant_rules.judged_targets(
            MUTANT, by_id, 'default'))
        self.assertEqual(['a'], mutant_rules.judged_targets(
            MUTANT, by_id, 'default', '2024.1'))


class MutantProbeTest(testtools.TestCase):
    """cloud/mutant_probe.py: a patch whose target is missing is named
    with its error; one that applies is None."""

    def test_missing_target_is_named(self):
        from conformance_tests.cloud import mutant_probe

        def fine():
            pass

        def missing():
            raise AttributeError("module 'x' has no attribute 'y'")
        patches = [mutants.Mutant('ok', 'svc', 'r', fine, ('a',)),
                   mutants.Mutant('gone', 'svc', 'r', missing, ('a',)),
                   mutants.Mutant('other', 'other', 'r', missing, ('a',))]
        self.useFixture(fixtures.MockPatch(
            'conformance_tests.cloud.mutants.all_mutants',
            return_value=patches))
        self.useFixture(fixtures.MockPatch(
            'conformance_tests.cloud.mutants.all_references',
            return_value=[]))
        self.assertEqual(
            {'ok': None,
             'gone': "AttributeError: module 'x' has no attribute 'y'"},
            mutant_probe.probe('svc'))


class MutantLineTest(testtools.TestCase):
    """What `conformance mutants` prints for each mutant."""

    def outcome(self, **kwargs):
        return dict(mutant_rules.mutant_outcome(MUTANT, CAPS, {}, ['a'],
                                                41.6), **kwargs)

    def test_killed(self):
        self.assertEqual('killed by a [42 s]', mutants_cmd._mutant_line(
            self.outcome(killed=True, killed_by=['a'])))

    def test_survivor_names_its_targets_and_errors(self):
        self.assertEqual(
            'SURVIVED: no test of a failed an assertion (1 test error(s), '
            'not kills: p.C.test: Timeout) [42 s]',
            mutants_cmd._mutant_line(
                self.outcome(errors=['p.C.test: Timeout'])))


class CoverageCheckTest(testtools.TestCase):

    def test_real_tree_has_no_problems(self):
        self.assertEqual([], check_mutants.problems(
            guidelines.load_all(), mutants.all_mutants()))

    def test_capability_without_mutant_or_reason_is_reported(self):
        found = check_mutants.problems(CAPS, [])
        self.assertEqual(2, len(found))
        self.assertIn('a: no mutant targets it', found[0])

    def test_unknown_target_and_contradiction_are_reported(self):
        found = check_mutants.problems(CAPS, [
            mutants.Mutant('m', 's', 'r', None, ('a', 'b', 'c', 'zz'))])
        self.assertTrue(any('zz, which no guideline' in p for p in found))
        self.assertTrue(any('c says no mutant can exist' in p
                            for p in found))

    def test_mutant_without_targets_is_refused(self):
        # Nothing could kill it: register refuses it, so no registered
        # mutant lacks targets.
        self.assertRaises(ValueError, mutants.register('m-x', 'svc', (),
                                                       'rule'), len)
        self.assertNotIn('m-x', [m.name for m in mutants.all_mutants()])


class ReferenceRegistryTest(testtools.TestCase):

    def test_reference_needs_capabilities(self):
        self.assertRaises(ValueError, mutants.reference('r-x', 'svc', (),
                                                        'rule'), len)

    def test_every_reference_names_expected_fail_capabilities(self):
        by_id = {c['id']: c for c in guidelines.load_all()}
        for ref in mutants.all_references():
            for cap_id in ref.capabilities:
                self.assertIn(cap_id, by_id, ref.name)
                self.assertTrue(by_id[cap_id]['expected_fail'],
                                '%s: %s is not expected_fail' % (
                                    ref.name, cap_id))


class MutantsCommandTest(testtools.TestCase):
    """`conformance mutants --profile X` starts every mutant cloud in X."""

    def test_profile_reaches_the_cloud(self):
        import fixtures

        from conformance_tests.cloud import profiles
        from conformance_tests.cmd import main

        started = []

        class FakeCloud(object):
            workspace = '/nonexistent'

            def __init__(self, workdir, **kwargs):
                started.append(kwargs)
                self.services = []

            def up(self, while_starting=None):
                pass

            def down(self, quiet=False):
                pass

        def fake_run(workspace, path, say, concurrency, quiet, regex,
                     listing=None, worker_env=None):
            return {}

        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.launcher.EmbeddedCloud', FakeCloud))
        # No zygote either: nothing of the cloud starts here.
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.launcher.start_zygotes',
            lambda log_dir: contextlib.nullcontext()))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.warm_workers.WarmWorkers',
            lambda directory: contextlib.nullcontext()))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.run', fake_run))
        workdir = self.useFixture(fixtures.TempDir()).path
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main.main(['mutants', '--only', 'quota-ignores-user',
                              '--profile', 'legacy-quota',
                              '--workdir', workdir])
        self.assertEqual(1, len(started))
        for key, value in profiles.settings('legacy-quota').items():
            self.assertEqual(value, started[0][key])
        self.assertEqual('quota-ignores-user', started[0]['mutant'])
        # Only what seed 001's tests call, and nova, which it patches.
        self.assertEqual((['compute', 'image'], ['nova']),
                         started[0]['serve'])
        # No test ran, so nothing killed it: a survivor fails the command
        # and is named in mutants.json and in what it prints.
        self.assertEqual(1, code, out.getvalue())
        with open(os.path.join(workdir, 'mutants.json')) as f:
            doc = json.load(f)
        self.assertEqual(['quota-ignores-user'], doc['summary']['survived'])
        self.assertEqual((1, 0), (doc['summary']['mutants'],
                                  doc['summary']['killed']))
        self.assertEqual('legacy-quota', doc['mutants'][0]['profile'])
        self.assertIn('quota-ignores-user: SURVIVED: no test of',
                      out.getvalue())


class MutantProfileTest(testtools.TestCase):
    """A mutant of a rule upstream already breaks runs where the rule
    holds (the spec reference), and pep8 says so before CI's mutant run
    would stop on it."""

    CAPS = [{'id': 'x', 'tests': ['t-x'], 'no_mutant': None,
             'expected_fail': {'status': 'fail', 'signature': 's'}}]

    WRONG = mutants.Mutant('w', 's', 'r', None, ('x',), wrong_reason=True)

    def test_mutant_of_an_expected_fail_rule_is_reported(self):
        found = check_mutants.problems(self.CAPS, [
            mutants.Mutant('m', 's', 'r', None, ('x',)), self.WRONG])
        self.assertEqual(2, len(found), found)
        self.assertIn('nothing can kill it', found[0])
        self.assertIn('no mutant breaks it on the spec-reference', found[1])

    def test_on_the_spec_reference_it_can_be_killed(self):
        mutant = mutants.Mutant('m', 's', 'r', None, ('x',),
                                'spec-reference')
        self.assertEqual([], check_mutants.problems(self.CAPS, [
            mutant, self.WRONG]))
        self.assertEqual('spec-reference',
                         mutant_rules.mutant_profile(mutant, 'default'))
        self.assertEqual(['x'], mutant_rules.judged_targets(
            mutant, {'x': self.CAPS[0]}, 'spec-reference'))

    def test_unknown_profile_is_reported(self):
        found = check_mutants.problems(self.CAPS, [
            mutants.Mutant('m', 's', 'r', None, ('x',), 'nightly')])
        self.assertIn('profile nightly, which does not exist', found[0])

    def test_a_plain_mutant_runs_in_the_runs_profile(self):
        self.assertEqual('legacy-quota', mutant_rules.mutant_profile(
            MUTANT, 'legacy-quota'))


class ExpectedFailCoverageTest(testtools.TestCase):
    """pep8 fails an expected-fail capability that is not mutation-tested
    both ways: broken again on its spec reference, and failed for a wrong
    cause that the report must judge fail."""

    CAP = {'id': 'x', 'tests': ['t-x'], 'no_mutant': None,
           'expected_fail': {'status': 'fail', 'signature': 's'}}
    ON_REF = mutants.Mutant('m', 's', 'r', None, ('x',), 'spec-reference')
    WRONG = mutants.Mutant('w', 's', 'r', None, ('x',), wrong_reason=True)

    def test_both_kinds_are_needed(self):
        self.assertEqual([], check_mutants.problems(
            [self.CAP], [self.ON_REF, self.WRONG]))
        only_ref = check_mutants.problems([self.CAP], [self.ON_REF])
        self.assertEqual(1, len(only_ref), only_ref)
        self.assertIn('no wrong-reason mutant targets it', only_ref[0])
        only_wrong = check_mutants.problems([self.CAP], [self.WRONG])
        self.assertEqual(1, len(only_wrong), only_wrong)
        self.assertIn('no mutant breaks it on the spec-reference',
                      only_wrong[0])

    def test_a_wrong_reason_mutant_on_the_reference_is_not_enough(self):
        # On the spec reference the capability is expected to pass, so a
        # wrong-reason mutant there has nothing to be judged against.
        wrong_on_ref = mutants.Mutant('w', 's', 'r', None, ('x',),
                                      'spec-reference', wrong_reason=True)
        found = check_mutants.problems([self.CAP], [self.ON_REF,
                                                    wrong_on_ref])
        self.assertTrue(any('no target is expected to fail' in p
                            for p in found), found)

    def test_no_mutant_is_refused_for_an_expected_fail_capability(self):
        cap = dict(self.CAP, no_mutant='upstream already fails it')
        found = check_mutants.problems([cap], [self.ON_REF, self.WRONG])
        self.assertEqual(1, len(found), found)
        self.assertIn('no_mutant is refused', found[0])

    def test_a_wrong_reason_mutant_of_a_passing_capability_is_refused(self):
        found = check_mutants.problems(
            [{'id': 'a', 'tests': ['t-a'], 'no_mutant': None,
              'expected_fail': None}],
            [mutants.Mutant('w', 's', 'r', None, ('a',),
                            wrong_reason=True)])
        self.assertTrue(any('no target is expected to fail' in p
                            for p in found), found)


class WrongReasonOutcomeTest(testtools.TestCase):
    """A wrong-reason mutant is killed only by an assertion the report
    judges fail: one that does not match the expected-fail signature."""

    CAP = {'id': 'x', 'tests': ['t-x', 't-y'], 'no_mutant': None,
           'expected_fail': {'status': 'fail',
                             'signature': 'lease \\S+ is ERROR because'}}
    WRONG = mutants.Mutant('w', 's', 'r', None, ('x',), wrong_reason=True)

    def outcome(self, results):
        judged = mutant_rules.judged_targets(self.WRONG, {'x': self.CAP},
                                             'default')
        self.assertEqual(['x'], judged)
        return mutant_rules.mutant_outcome(self.WRONG, [self.CAP], results,
                                           judged)

    def test_an_assertion_outside_the_signature_kills(self):
        out = self.outcome({'t-x': _res('fail', 'assertion',
                                        'lease L never left PENDING')})
        self.assertEqual((True, ['x']), (out['killed'], out['killed_by']))
        self.assertTrue(out['wrong_reason'])

    def test_an_assertion_matching_the_signature_survives(self):
        out = self.outcome({'t-x': _res('fail', 'assertion',
                                        'lease L is ERROR because ...')})
        self.assertFalse(out['killed'])

    def test_one_test_outside_the_signature_is_enough(self):
        out = self.outcome({
            't-x': _res('fail', 'assertion', 'lease L is ERROR because'),
            't-y': _res('fail', 'assertion', 'host h never freed')})
        self.assertTrue(out['killed'])

    def test_an_error_never_kills(self):
        out = self.outcome({'t-x': _res('fail', 'error', 'Timeout')})
        self.assertFalse(out['killed'])

    def test_on_the_spec_reference_nothing_is_judged(self):
        self.assertEqual([], mutant_rules.judged_targets(
            self.WRONG, {'x': self.CAP}, 'spec-reference'))

    def test_lines_say_what_was_judged(self):
        killed = self.outcome({'t-x': _res('fail', 'assertion', 'other')})
        self.assertIn('(judged fail, not expected-fail)',
                      mutants_cmd._mutant_line(dict(killed, duration_s=1)))
        survived = self.outcome({'t-x': _res(
            'fail', 'assertion', 'lease L is ERROR because')})
        self.assertIn('outside its expected-fail signature',
                      mutants_cmd._mutant_line(dict(survived, duration_s=1)))


class SkippedOnReleaseTest(testtools.TestCase):
    """cmd/mutants.py on an older series: a mutant whose patch target, or
    whose spec reference's, that series lacks is skipped with the reason;
    nothing is skipped on today's."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatch(
            'conformance_tests.cloud.mutants.all_references',
            return_value=[mutants.Reference('ref', 'svc', 'r', None,
                                            ('a',))]))
        self.run = self.useFixture(fixtures.MockPatch('subprocess.run')).mock
        self.run.return_value.returncode = 0
        self.run.return_value.stdout = 'noise\n' + json.dumps(
            {'m': None, 'gone': 'AttributeError: no y', 'ref':
             'AttributeError: no create_response_v264'})

    def skipped(self, chosen, release='2024.1'):
        class Args(object):
            profile = 'default'

        class Scope(object):
            capabilities = [dict(c, expect={}, by_release={},
                                 expected_fail=None) for c in CAPS]
        return mutants_cmd._skipped_on_release(Args(), Scope(), chosen,
                                               release)

    def test_missing_targets_and_references_skip(self):
        gone = mutants.Mutant('gone', 'svc', 'rule', None, ('a',))
        on_reference = mutants.Mutant('on-ref', 'svc', 'rule', None, ('a',),
                                      profile='spec-reference')
        found = self.skipped([MUTANT, gone, on_reference])
        self.assertEqual({
            'gone': 'its patch target is not in 2024.1 (AttributeError: '
                    'no y)',
            'on-ref': 'it runs on the spec reference, and ref is not in '
                      '2024.1'}, found)

    def test_nothing_is_skipped_on_todays_series(self):
        self.assertEqual({}, self.skipped([MUTANT], release=None))
        self.run.assert_not_called()
