"""report/build.py: capability verdicts, summary and rendering."""

import json
import os

import fixtures
import testtools

from conformance_tests.report import build

T1, T2, T3 = 'id-one', 'id-two', 'id-three'


def _cap(cap_id, tests, expected_fail=None, disruptive=False):
    return {'id': cap_id, 'seed': '003_abcdef.txt', 'feature': 'feature',
            'rule': 'rule of %s' % cap_id, 'tests': list(tests),
            'expected_fail': expected_fail, 'disruptive': disruptive}


def _res(status, requests=1, reason=''):
    return {'name': 'pkg.Class.test', 'status': status,
            'requests': requests, 'reason': reason}


class VerdictsTest(testtools.TestCase):

    def verdict(self, statuses, **cap_kwargs):
        results = {t: _res(s) for t, s in statuses.items()}
        caps = build.verdicts([_cap('c', [T1, T2], **cap_kwargs)], results)
        self.assertEqual(1, len(caps))
        return caps[0]

    def test_all_pass_is_pass(self):
        self.assertEqual('pass', self.verdict(
            {T1: 'pass', T2: 'pass'})['status'])

    def test_any_fail_is_fail(self):
        self.assertEqual('fail', self.verdict(
            {T1: 'pass', T2: 'fail'})['status'])

    def test_fail_wins_over_skip(self):
        self.assertEqual('fail', self.verdict(
            {T1: 'skip', T2: 'fail'})['status'])

    def test_all_skip_is_skip(self):
        self.assertEqual('skip', self.verdict(
            {T1: 'skip', T2: 'skip'})['status'])

    def test_partial_skip_is_pass(self):
        self.assertEqual('pass', self.verdict(
            {T1: 'pass', T2: 'skip'})['status'])

    def test_test_that_did_not_run_counts_as_fail(self):
        cap = self.verdict({T1: 'pass'})
        self.assertEqual('fail', cap['status'])
        missing = [t for t in cap['tests'] if t['id'] == T2][0]
        self.assertEqual('fail', missing['status'])
        self.assertIn('did not run', missing['reason'])

    def test_expected_fail_turns_fail_into_expected_fail(self):
        cap = self.verdict({T1: 'fail', T2: 'pass'},
                           expected_fail='upstream bug 123')
        self.assertEqual('expected-fail', cap['status'])
        self.assertEqual('upstream bug 123', cap['expected_fail_reason'])

    def test_expected_fail_turns_pass_into_unexpected_pass(self):
        self.assertEqual('unexpected-pass', self.verdict(
            {T1: 'pass', T2: 'pass'}, expected_fail='bug')['status'])

    def test_expected_fail_leaves_skip_alone(self):
        self.assertEqual('skip', self.verdict(
            {T1: 'skip', T2: 'skip'}, expected_fail='bug')['status'])

    def test_requests_are_summed(self):
        results = {T1: _res('pass', 3), T2: _res('pass', 4)}
        cap = build.verdicts([_cap('c', [T1, T2])], results)[0]
        self.assertEqual(7, cap['gabbi_requests'])

    def test_fields_are_carried(self):
        cap = self.verdict({T1: 'pass', T2: 'pass'})
        self.assertEqual('c', cap['id'])
        self.assertEqual('rule of c', cap['rule'])
        self.assertFalse(cap['disruptive'])
        self.assertIsNone(cap['expected_fail_reason'])
        self.assertEqual([T1, T2], [t['id'] for t in cap['tests']])


class SummariseTest(testtools.TestCase):

    def summary(self, statuses, allow_skips=False, extra_results=(),
                expected_fail=None):
        results = {t: _res(s) for t, s in statuses.items()}
        for t in extra_results:
            results[t] = _res('pass')
        caps = build.verdicts(
            [_cap('cap-a', [T1]),
             _cap('cap-b', [T2], expected_fail=expected_fail)], results)
        return caps, build.summarise(caps, results, 'target', allow_skips,
                                     duration=12.345)

    def test_all_pass_is_as_expected(self):
        _, s = self.summary({T1: 'pass', T2: 'pass'})
        self.assertTrue(s['as_expected'])
        self.assertEqual([], s['unexpected'])
        self.assertEqual({'pass': 2}, s['by_status'])
        self.assertEqual(2, s['tests_run'])
        self.assertEqual(2, s['gabbi_requests'])
        self.assertEqual(12.3, s['duration_s'])
        self.assertEqual('target', s['target'])

    def test_fail_is_not_as_expected(self):
        _, s = self.summary({T1: 'pass', T2: 'fail'})
        self.assertFalse(s['as_expected'])
        self.assertEqual(['cap-b'], s['unexpected'])

    def test_expected_fail_is_as_expected(self):
        _, s = self.summary({T1: 'pass', T2: 'fail'}, expected_fail='bug')
        self.assertTrue(s['as_expected'])

    def test_unexpected_pass_is_not_as_expected(self):
        _, s = self.summary({T1: 'pass', T2: 'pass'}, expected_fail='bug')
        self.assertFalse(s['as_expected'])
        self.assertEqual(['cap-b'], s['unexpected'])

    def test_skip_is_not_as_expected_without_allow_skips(self):
        _, s = self.summary({T1: 'pass', T2: 'skip'}, allow_skips=False)
        self.assertFalse(s['as_expected'])
        self.assertEqual(['cap-b'], s['unexpected'])

    def test_skip_is_as_expected_with_allow_skips(self):
        _, s = self.summary({T1: 'pass', T2: 'skip'}, allow_skips=True)
        self.assertTrue(s['as_expected'])

    def test_result_no_capability_claims_is_not_as_expected(self):
        _, s = self.summary({T1: 'pass', T2: 'pass'},
                            extra_results=['orphan'])
        self.assertFalse(s['as_expected'])
        self.assertEqual([], s['unexpected'])
        self.assertEqual(['orphan'], s['tests_without_capability'])

    def test_no_duration(self):
        results = {}
        s = build.summarise([], results, 't', True)
        self.assertIsNone(s['duration_s'])


class RenderTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        results = {T1: _res('pass'),
                   T2: _res('fail', reason='spec rule broken: nope'),
                   'orphan': _res('pass')}
        self.caps = build.verdicts(
            [_cap('cap.alpha', [T1]), _cap('cap.beta', [T2]),
             _cap('cap.gamma', [T3], disruptive=True)], results)
        self.summary = build.summarise(self.caps, results, 'the cloud',
                                       allow_skips=False)

    def test_markdown_names_every_capability(self):
        md = build.markdown(self.caps, self.summary)
        for cap in ('cap.alpha', 'cap.beta', 'cap.gamma'):
            self.assertIn(cap, md)
        self.assertIn('Target: the cloud', md)
        self.assertIn('NOT as expected', md)

    def test_markdown_details_failures(self):
        md = build.markdown(self.caps, self.summary)
        self.assertIn('## Not passing', md)
        self.assertIn('spec rule broken: nope', md)
        self.assertIn('did not run', md)
        self.assertIn('cap.gamma (disruptive)', md)
        self.assertIn('Tests that no capability claims: orphan', md)

    def test_table_names_every_capability(self):
        table = build.table(self.caps, self.summary)
        for cap in ('cap.alpha', 'cap.beta', 'cap.gamma'):
            self.assertIn(cap, table)
        self.assertIn('NOT as expected', table)
        self.assertIn('orphan', table)

    def test_table_of_nothing(self):
        summary = build.summarise([], {}, 't', True)
        self.assertIn('as expected', build.table([], summary))

    def test_write_puts_json_and_markdown_in_workdir(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        workdir = os.path.join(tmp, 'new')
        json_path, md_path = build.write(workdir, self.caps, self.summary)
        self.assertEqual(workdir, os.path.dirname(json_path))
        with open(json_path) as f:
            data = json.load(f)
        self.assertEqual(self.summary, data['summary'])
        self.assertEqual(3, len(data['capabilities']))
        with open(md_path) as f:
            self.assertIn('cap.beta', f.read())
