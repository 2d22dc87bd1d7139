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

"""report/build.py: the verdict rules, the summary and the rendering.

Each rule of the verdict engine has a test here that fails when the rule
is broken: e.g. a scoped run failing the capabilities it did not run, any
failure accepted as expected, a skipped test passing a capability.
"""

import ast
import inspect
import json
import os

import fixtures
import testtools

from conformance_tests.report import build
from conformance_tests.report import files

T1, T2, T3 = 'id-one', 'id-two', 'id-three'
SIG = r'usage still counts its \d servers'


def _cap(cap_id, tests, expected_fail=None, expect=None, disruptive=False,
         by_release=None):
    return {'id': cap_id, 'seed': '003_abcdef.txt', 'feature': 'feature',
            'rule': 'rule of %s' % cap_id, 'tests': list(tests),
            'expected_fail': expected_fail, 'expect': expect or {},
            'by_release': by_release or {},
            'no_mutant': None, 'disruptive': disruptive}


def _res(status, kind=None, message='', requests=1):
    if status == 'fail' and kind is None:
        kind = 'assertion'
    return {'name': 'pkg.Class.test', 'status': status, 'kind': kind,
            'message': message, 'requests': requests, 'reason': message}


def _expect_fail(signature=SIG):
    return {'status': 'fail', 'signature': signature,
            'reason': 'upstream does not do it'}


class VerdictsTest(testtools.TestCase):

    def verdict(self, results, profile='default', scope=None, **cap_kwargs):
        caps = build.verdicts([_cap('c', [T1, T2], **cap_kwargs)], results,
                              profile, scope=scope)
        self.assertEqual(1, len(caps))
        return caps[0]

    def test_all_pass_is_pass(self):
        cap = self.verdict({T1: _res('pass'), T2: _res('pass')})
        self.assertEqual(('pass', True), (cap['status'], cap['as_expected']))

    def test_any_fail_is_fail(self):
        cap = self.verdict({T1: _res('pass'), T2: _res('fail')})
        self.assertEqual(('fail', False), (cap['status'], cap['as_expected']))

    def test_a_mismatch_is_explained_by_its_rule_and_values(self):
        try:
            testtools.TestCase('run').assertEqual(
                ['UNKNOWN'] * 9, ['ACTIVE'] * 9, 'rule R')
        except testtools.matchers.MismatchError as e:
            message = str(e)
        failed = _res('fail', 'assertion', message)
        cap = self.verdict({T1: _res('pass'), T2: failed})
        self.assertIn("assertion: rule R (!= reference = ['UNKNOWN',",
                      cap['explanation'])
        self.assertIn("actual = ['ACTIVE',", cap['explanation'])

    def test_a_profile_with_the_references_expects_them_to_pass(self):
        cap = _cap('c', [T1], expected_fail=_expect_fail(),
                   expect={'spec-reference': {'status': 'pass',
                                              'signature': None}})
        for profile in ('spec-reference',
                        'spec-reference-no-drs-hypervisor'):
            self.assertEqual('pass',
                             build.expectation(cap, profile)['status'])
        self.assertEqual('fail', build.expectation(
            cap, 'no-drs-hypervisor')['status'])

    def test_an_older_release_is_judged_by_its_own_expectation(self):
        older = {'status': 'pass', 'signature': None,
                 'reason': 'osc-lib 4 changed it'}
        cap = _cap('c', [T1], expected_fail=_expect_fail(),
                   by_release={'2024.1': older})
        self.assertEqual(older, build.expectation(cap, 'default', '2024.1'))
        self.assertEqual('fail', build.expectation(
            cap, 'default', '2025.1')['status'])
        self.assertEqual('fail', build.expectation(cap, 'default')['status'])
        # the references are the spec's, whatever the release
        self.assertEqual('pass', build.expectation(
            cap, 'spec-reference', '2024.1')['status'])
        [passed] = build.verdicts([cap], {T1: _res('pass')}, release='2024.1')
        self.assertEqual(('pass', True, None, 'osc-lib 4 changed it'), (
            passed['status'], passed['as_expected'],
            passed['expected_fail_reason'], passed['expected_reason']))
        [failed] = build.verdicts([cap], {T1: _res('fail', message=SIG)},
                                  release='2024.1')
        self.assertEqual(('fail', False), (failed['status'],
                                           failed['as_expected']))

    def test_fail_wins_over_skip(self):
        self.assertEqual('fail', self.verdict(
            {T1: _res('skip'), T2: _res('fail')})['status'])

    def test_one_skipped_test_is_partial_not_pass(self):
        cap = self.verdict({T1: _res('pass'),
                            T2: _res('skip', message='set [x] y')})
        self.assertEqual(('partial', False),
                         (cap['status'], cap['as_expected']))
        self.assertIn('set [x] y', cap['explanation'])

    def test_a_blank_skip_message_is_still_a_verdict(self):
        cap = self.verdict({T1: _res('pass'), T2: _res('skip',
                                                       message=' \n')})
        self.assertEqual(('partial', 'skipped: '),
                         (cap['status'], cap['explanation']))

    def test_all_skipped_is_partial(self):
        self.assertEqual('partial', self.verdict(
            {T1: _res('skip'), T2: _res('skip')})['status'])

    def test_test_in_scope_that_did_not_run_is_a_failure(self):
        cap = self.verdict({T1: _res('pass')})
        self.assertEqual('fail', cap['status'])
        missing = [t for t in cap['tests'] if t['id'] == T2][0]
        self.assertEqual(('fail', 'error'), (missing['status'],
                                             missing['kind']))
        self.assertIn('did not run', missing['reason'])

    def test_capability_out_of_scope_is_not_in_scope_and_as_expected(self):
        cap = self.verdict({}, scope={'other'})
        self.assertEqual(('not-in-scope', True),
                         (cap['status'], cap['as_expected']))

    def test_expected_fail_needs_the_signature(self):
        cap = self.verdict(
            {T1: _res('pass'),
             T2: _res('fail', message='3 != 0: usage still counts its 3 '
                                      'servers')},
            expected_fail=_expect_fail())
        self.assertEqual(('expected-fail', True),
                         (cap['status'], cap['as_expected']))

    def test_expected_fail_with_another_assertion_is_fail(self):
        cap = self.verdict(
            {T1: _res('pass'), T2: _res('fail', message='a boot was 500')},
            expected_fail=_expect_fail())
        self.assertEqual(('fail', False), (cap['status'], cap['as_expected']))
        self.assertIn('does not match', cap['explanation'])

    def test_expected_fail_with_an_error_is_fail(self):
        # e.g. the fault back end unreachable: a URLError, not a verdict.
        cap = self.verdict(
            {T1: _res('pass'),
             T2: _res('fail', kind='error',
                      message='usage still counts its 3 servers <urlopen '
                              'error [Errno 111] Connection refused>')},
            expected_fail=_expect_fail())
        self.assertEqual(('fail', False), (cap['status'], cap['as_expected']))
        self.assertIn('not an assertion', cap['explanation'])

    def test_expected_fail_with_a_test_that_did_not_run_is_fail(self):
        cap = self.verdict(
            {T2: _res('fail', message='usage still counts its 3 servers')},
            expected_fail=_expect_fail())
        self.assertEqual('fail', cap['status'])

    def test_expected_fail_that_passes_is_unexpected_pass(self):
        cap = self.verdict({T1: _res('pass'), T2: _res('pass')},
                           expected_fail=_expect_fail())
        self.assertEqual(('unexpected-pass', False),
                         (cap['status'], cap['as_expected']))

    def test_expected_fail_must_pass_on_the_spec_reference(self):
        cap = self.verdict({T1: _res('pass'), T2: _res('pass')},
                           profile=build.SPEC_REFERENCE,
                           expected_fail=_expect_fail())
        self.assertEqual(('pass', True), (cap['status'], cap['as_expected']))

    def test_profile_expectation_applies_only_to_that_profile(self):
        results = {T1: _res('pass'),
                   T2: _res('fail', message='usage still counts its 3 '
                                            'servers')}
        expect = {'legacy-quota': _expect_fail()}
        self.assertEqual('expected-fail', self.verdict(
            results, profile='legacy-quota', expect=expect)['status'])
        self.assertEqual('fail', self.verdict(
            results, profile='default', expect=expect)['status'])

    def test_expected_partial_needs_the_skip_signature(self):
        expect = {'legacy-quota': {'status': 'partial',
                                   'signature': 'claims legacy'}}
        ok = self.verdict({T1: _res('skip', message='cloud claims legacy'),
                           T2: _res('skip', message='cloud claims legacy')},
                          profile='legacy-quota', expect=expect)
        self.assertEqual(('partial', True), (ok['status'], ok['as_expected']))
        other = self.verdict({T1: _res('skip', message='no zone set'),
                              T2: _res('pass')},
                             profile='legacy-quota', expect=expect)
        self.assertEqual(('partial', False),
                         (other['status'], other['as_expected']))


class SummariseTest(testtools.TestCase):

    def summary(self, results, allow_skips=False, scope=None, **cap_kwargs):
        caps = build.verdicts([_cap('c', [T1], **cap_kwargs)], results,
                              scope=scope)
        return build.summarise(caps, results, 'target', allow_skips)

    def test_pass_is_as_expected(self):
        self.assertTrue(self.summary({T1: _res('pass')})['as_expected'])

    def test_fail_is_not_as_expected(self):
        summary = self.summary({T1: _res('fail')})
        self.assertFalse(summary['as_expected'])
        self.assertEqual(['c'], summary['unexpected'])

    def test_expected_fail_is_as_expected(self):
        self.assertTrue(self.summary(
            {T1: _res('fail', message='usage still counts its 3 servers')},
            expected_fail=_expect_fail())['as_expected'])

    def test_unexpected_pass_is_not_as_expected(self):
        self.assertFalse(self.summary(
            {T1: _res('pass')}, expected_fail=_expect_fail())['as_expected'])

    def test_partial_is_not_as_expected_on_the_embedded_cloud(self):
        self.assertFalse(self.summary({T1: _res('skip')})['as_expected'])

    def test_partial_is_allowed_on_a_vendor_cloud(self):
        self.assertTrue(self.summary({T1: _res('skip')},
                                     allow_skips=True)['as_expected'])

    def test_out_of_scope_never_fails_a_run(self):
        summary = self.summary({}, scope=set())
        self.assertTrue(summary['as_expected'])
        self.assertEqual({'not-in-scope': 1}, summary['by_status'])
        self.assertEqual(0, summary['in_scope'])

    def test_result_no_capability_claims_is_not_as_expected(self):
        summary = self.summary({T1: _res('pass'),
                                'setUpClass (x.Y)': _res('fail')})
        self.assertEqual(['setUpClass (x.Y)'],
                         summary['tests_without_capability'])
        self.assertFalse(summary['as_expected'])


class RenderTest(testtools.TestCase):

    def caps(self):
        results = {T1: _res('pass', requests=3),
                   T2: _res('fail', kind='error', message='boom'),
                   T3: _res('fail', message='usage still counts its 3 '
                                            'servers')}
        return build.verdicts(
            [_cap('a.pass', [T1]), _cap('b.fail', [T2]),
             _cap('c.xfail', [T3], expected_fail=_expect_fail()),
             _cap('d.out', ['id-four'])],
            results, scope={'a.pass', 'b.fail', 'c.xfail'}), results

    def test_markdown_names_every_capability_and_expectation(self):
        caps, results = self.caps()
        text = build.markdown(caps, build.summarise(caps, results, 't',
                                                    False))
        for cap_id in ('a.pass', 'b.fail', 'c.xfail', 'd.out'):
            self.assertIn(cap_id, text)
        self.assertIn('not-in-scope', text)
        self.assertIn('Expected signature', text)
        self.assertIn('NOT as expected (b.fail)', text)

    def test_table_explains_what_is_not_as_expected(self):
        caps, results = self.caps()
        text = build.table(caps, build.summarise(caps, results, 't', False))
        self.assertIn('b.fail: pkg.Class.test: error: boom', text)
        self.assertIn('4 capabilities (3 in scope)', text)

    def test_table_of_nothing(self):
        self.assertIn('0 capabilities', build.table([], build.summarise(
            [], {}, 't', False)))

    def test_write_puts_json_and_markdown_in_workdir(self):
        caps, results = self.caps()
        workdir = self.useFixture(fixtures.TempDir()).path
        json_path, md_path, html_path, junit_path = files.write(
            workdir, caps, build.summarise(caps, results, 't', False))
        with open(json_path) as f:
            doc = json.load(f)
        self.assertEqual(['a.pass', 'b.fail', 'c.xfail', 'd.out'],
                         [c['id'] for c in doc['capabilities']])
        self.assertEqual('expected-fail', doc['capabilities'][2]['status'])
        self.assertTrue(os.path.exists(md_path))
        self.assertEqual(os.path.join(workdir, 'report.html'), html_path)
        self.assertEqual(os.path.join(workdir, 'report.junit.xml'),
                         junit_path)


class TestThePageRendersTheReport(testtools.TestCase):
    """The page (html.py) renders what build.py judged: build.py never
    imports it, at module level or inside a function (files.py writes
    both), so the two cannot import each other again."""

    def test_build_imports_no_page(self):
        tree = ast.parse(inspect.getsource(build))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imported.update('%s.%s' % (node.module, a.name)
                                for a in node.names)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
        self.assertIn('conformance_tests.report.series_versions', imported)
        self.assertNotIn('conformance_tests.report.html', imported)
        self.assertNotIn('conformance_tests.report.files', imported)
