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

"""Per-capability verdicts, and the JSON and Markdown reports (files.py
writes them).

The rules (each has a self-test in selftests/report/test_build.py):
- A capability outside the run's scope is `not-in-scope` and never fails
  a run. Inside it, a test that did not run is a failure.
- `pass`: every test passed. `fail`: a test failed. `partial`: no test
  failed and at least one skipped; it is reported with the skip messages
  and is unexpected on the embedded cloud (skips are allowed against a
  vendor's cloud).
- `expected-fail`: the guideline expects a failure (`expected_fail`, or
  `expect: {<profile>: {status: fail}}`) and every failing test failed an
  assertion whose message matches the guideline's signature. Any other
  failure (an error, a timeout, a set-up failure, another assertion) is
  `fail`, and the report says what was expected and what came.
- A capability expected to fail that passes is `unexpected-pass`.
- In the `spec-reference` profile upstream's known deviations are patched
  to do what the spec says, so `expected_fail` capabilities must pass.
"""

import re

from conformance_tests.cloud import profiles
from conformance_tests.cloud import releases
from conformance_tests.report import applicability
from conformance_tests.report import series_versions

SPEC_REFERENCE = 'spec-reference'
NOT_IN_SCOPE = 'not-in-scope'
NOT_APPLICABLE = 'not-applicable'


def expectation(cap, profile, release=None):
    """{'status': pass|fail|partial, 'signature': regex or None}.

    ``release``: the series the cloud ran (None: today's). Its
    expectation (the guideline's ``by_release``, written for older
    series) stands for upstream's, in every profile that has none of its
    own and is no spec reference.
    """
    expect = cap.get('expect', {})
    if profile in expect:
        return expect[profile]
    if profiles.is_spec_reference(profile):
        if SPEC_REFERENCE in expect:
            return expect[SPEC_REFERENCE]
        return {'status': 'pass', 'signature': None}
    if release and release in cap.get('by_release', {}):
        return cap['by_release'][release]
    if cap.get('expected_fail'):
        return cap['expected_fail']
    return {'status': 'pass', 'signature': None}


def _did_not_run(test_id):
    return {'name': None, 'status': 'fail', 'kind': 'error',
            'message': 'test %s did not run' % test_id, 'requests': 0,
            'reason': 'test %s is in scope but did not run' % test_id}


def _raw_status(tests):
    statuses = set(t['status'] for t in tests)
    if 'fail' in statuses:
        return 'fail'
    if statuses == {'skip'} and all(_not_applicable(t) for t in tests):
        return NOT_APPLICABLE
    if 'skip' in statuses:
        return 'partial'
    return 'pass'


def _not_applicable(test):
    return applicability.reason(test['message'])


def _not_applicable_verdict(tests, required):
    """(status, as_expected, explanation) of a capability no test of which
    the cloud can show."""
    reasons = []
    for test in tests:
        found = _not_applicable(test)
        if found[1] not in [r[1] for r in reasons]:
            reasons.append(found)
    text = '; '.join(r[1] for r in reasons)
    missing = [r for r in reasons if applicability.required(r, required)]
    if missing:
        return 'fail', False, 'required, but %s' % text
    return NOT_APPLICABLE, True, text


def _signature_misses(tests, status, kind, signature):
    """Tests with `status` that are not of `kind` matching `signature`."""
    misses = []
    for test in tests:
        if test['status'] != status:
            continue
        if kind and test['kind'] != kind:
            misses.append('%s: %s, not an assertion: %s' % (
                test['name'] or test['id'], test['kind'],
                _first_line(test['message'])))
        elif not re.search(signature, test['message'] or '', re.DOTALL):
            misses.append('%s: %s does not match /%s/: %s' % (
                test['name'] or test['id'],
                'assertion' if status == 'fail' else 'skip message',
                signature, _first_line(test['message'])))
    return misses


def _first_line(text):
    """One line that names a failure, for the printout and the report.

    testtools' mismatches start with a bare '!=:' and end with ': <the
    test's message>' (the spec rule), the two values between: then the
    rule comes first and the values, on one line, after it, so a log
    names the broken rule and what the cloud answered.
    """
    lines = (text or '').strip().splitlines()
    if not lines:
        return ''
    head = lines[0]
    if len(lines) > 1 and head.endswith(':') and lines[-1].startswith(': '):
        values = ' '.join(' '.join(lines[1:-1]).split())
        head = '%s (%s %s)' % (lines[-1][2:], head.rstrip(':'), values)
    return head[:300]


def judge(tests, expected, required=()):
    """(status, as_expected, explanation) of one in-scope capability.

    ``required``: what the run must have (applicability.required)."""
    raw = _raw_status(tests)
    if raw == NOT_APPLICABLE:
        return _not_applicable_verdict(tests, required)
    want = expected['status']
    if want == 'fail':
        if raw == 'pass':
            return 'unexpected-pass', False, (
                'expected to fail with /%s/; every test passed' %
                expected['signature'])
        if raw == 'partial':
            return 'partial', False, 'expected to fail with /%s/; a test ' \
                'skipped' % expected['signature']
        misses = _signature_misses(tests, 'fail', 'assertion',
                                   expected['signature'])
        if misses:
            return 'fail', False, 'expected a failed assertion matching ' \
                '/%s/; came: %s' % (expected['signature'], '; '.join(misses))
        return 'expected-fail', True, ''
    if want == 'partial':
        if raw != 'partial':
            return raw, False, 'expected skips with /%s/; came %s' % (
                expected['signature'], raw)
        misses = _signature_misses(tests, 'skip', None,
                                   expected['signature'])
        if misses:
            return 'partial', False, '; '.join(misses)
        return 'partial', True, ''
    if raw == 'partial':
        return 'partial', False, 'skipped: %s' % '; '.join(
            _first_line(t['message']) for t in tests if t['status'] == 'skip')
    if raw == 'fail':
        return 'fail', False, '; '.join(
            '%s: %s: %s' % (t['name'] or t['id'], t['kind'],
                            _first_line(t['message']))
            for t in tests if t['status'] == 'fail')
    return 'pass', True, ''


def verdicts(capabilities, results, profile='default', scope=None,
             required=(), release=None):
    """One verdict per capability; `scope` is the ids in scope (None:
    all); `required`: see judge(); `release`: see expectation()."""
    out = []
    for cap in capabilities:
        expected = expectation(cap, profile, release)
        # in the versions of the series that judged the run
        reason = series_versions.fill(expected.get('reason'), release)
        entry = {
            'id': cap['id'], 'seed': cap['seed'], 'feature': cap['feature'],
            'rule': cap['rule'], 'disruptive': cap['disruptive'],
            'expected': expected['status'],
            'signature': expected.get('signature'),
            'expected_fail_reason': (reason or None
                                     if expected['status'] != 'pass'
                                     else None),
            # why this run expects what it does, where a guideline says:
            # also a pass an older series' by_release expects
            'expected_reason': reason or None,
        }
        if scope is not None and cap['id'] not in scope:
            entry.update(status=NOT_IN_SCOPE, as_expected=True,
                         explanation='', gabbi_requests=0,
                         tests=[{'id': t, 'name': None,
                                 'status': NOT_IN_SCOPE}
                                for t in cap['tests']])
            out.append(entry)
            continue
        tests = [dict(results.get(t) or _did_not_run(t), id=t)
                 for t in cap['tests']]
        status, as_expected, explanation = judge(tests, expected, required)
        entry.update(status=status, as_expected=as_expected,
                     explanation=explanation,
                     gabbi_requests=sum(t['requests'] for t in tests),
                     tests=tests)
        out.append(entry)
    return out


def summarise(caps, results, target, allow_skips, duration=None,
              required=(), inventory=None, release=None):
    """The run's summary. ``inventory``: the differences between the
    cloud's inventory before and after the run (inventory/listing.py), or
    None when none was taken; any difference makes the run not as
    expected: a run leaves the cloud as it found it. ``release``: the
    series whose expectations judged the verdicts (None: today's); every
    report names it, today's too, so a report read later or elsewhere
    still says what it was judged by."""
    counts = {}
    for cap in caps:
        counts[cap['status']] = counts.get(cap['status'], 0) + 1
    unexpected = [c['id'] for c in caps if not c['as_expected'] and not (
        allow_skips and c['status'] == 'partial')]
    known = set(t['id'] for c in caps for t in c['tests'])
    unmapped = sorted(k for k in results if k not in known)
    return {
        'target': target,
        'release': release or releases.CURRENT,
        'capabilities': len(caps),
        'in_scope': sum(1 for c in caps if c['status'] != NOT_IN_SCOPE),
        'by_status': counts,
        'tests_run': len(results),
        'gabbi_requests': sum(r['requests'] for r in results.values()),
        'unexpected': unexpected,
        'tests_without_capability': unmapped,
        'as_expected': not unexpected and not unmapped and not inventory,
        'inventory_differences': inventory,
        'skips_allowed': bool(allow_skips),
        'required': sorted(required),
        'duration_s': round(duration, 1) if duration else None,
    }


def not_as_expected(report):
    """A line per capability of a written report whose verdict is not
    the expected one: its id, verdict, expectation and the first line of
    its evidence (what a deployment's run prints last)."""
    lines = []
    for cap in report['capabilities']:
        if cap.get('as_expected', True):
            continue
        evidence = (cap.get('explanation') or '').strip().splitlines()
        lines.append('%s is %s, expected %s%s' % (
            cap['id'], cap['status'], cap.get('expected', '?'),
            ': ' + evidence[0][:300] if evidence else ''))
    return lines


def markdown(caps, summary):
    lines = ['# Conformance report', '',
             'Target: %s' % summary['target'], '',
             'Release: %s' % _series(summary), '',
             '| capability | seed | status | expected | tests | gabbi '
             'requests |', '|---|---|---|---|---|---|']
    for cap in caps:
        lines.append('| %s%s | %s | **%s** | %s | %d | %d |' % (
            cap['id'], ' (disruptive)' if cap['disruptive'] else '',
            cap['seed'].split('_')[0], cap['status'],
            expected_text(cap), len(cap['tests']), cap['gabbi_requests']))
    lines += ['', 'Summary: %s capabilities (%d in scope): %s; %d tests; '
              '%d gabbi requests; %s.' % (
                  summary['capabilities'], summary['in_scope'],
                  _counts(summary), summary['tests_run'],
                  summary['gabbi_requests'], _verdict(summary))]
    if summary.get('preflight'):
        from conformance_tests import preflight
        lines += ['', '## The cloud (preflight)', ''] + [
            '- %s' % line for line in preflight.summary(summary['preflight'])]
    details = [c for c in caps if c['status'] not in ('pass', NOT_IN_SCOPE)]
    if details:
        lines += ['', '## Not passing', '']
        for cap in details:
            lines += ['### %s: %s' % (cap['id'], cap['status']), '',
                      'Rule: %s' % cap['rule'], '']
            if cap['expected_fail_reason']:
                lines += ['Expected to fail: %s' % cap['expected_fail_reason'],
                          '']
            if cap['signature']:
                lines += ['Expected signature: `/%s/`' % cap['signature'], '']
            if cap['status'] == NOT_APPLICABLE:
                lines += ['Not applicable: %s' % cap['explanation'], '']
            elif cap['explanation']:
                lines += ['Not as expected: %s' % cap['explanation'], '']
            for test in cap['tests']:
                if test['status'] != 'pass':
                    lines += ['- `%s`: %s%s' % (
                        test['name'] or test['id'], test['status'],
                        ' (%s)' % test['kind'] if test.get('kind') else '')]
                    if test.get('reason'):
                        lines += ['', '```', test['reason'], '```', '']
    if summary['tests_without_capability']:
        lines += ['', 'Tests that no capability claims: %s' % ', '.join(
            summary['tests_without_capability'])]
    if summary.get('inventory_differences'):
        lines += ['', '## Left behind (inventory after the run)', '']
        for kind, diff in summary['inventory_differences'].items():
            lines.append('- %s: added %s; removed %s' % (
                kind, ', '.join(diff['added'][:20]) or 'nothing',
                ', '.join(diff['removed'][:20]) or 'nothing'))
    return '\n'.join(lines) + '\n'


def _series(summary):
    """'2024.1', or '2026.2 (today's series)': whose expectations judged
    the report."""
    series = summary['release']
    return series + (" (today's series)" if series == releases.CURRENT
                     else '')


def expected_text(cap):
    """What a capability is expected to be: pass, or a status and the
    signature it must show."""
    if cap['expected'] == 'pass':
        return 'pass'
    return '%s /%s/' % (cap['expected'], cap['signature'])


def _verdict(summary):
    if summary['as_expected']:
        return 'as expected'
    left = ['left behind: %s' % kind for kind in (
        summary.get('inventory_differences') or {})]
    return 'NOT as expected (%s)' % ', '.join(
        summary['unexpected'] + summary['tests_without_capability'] + left)


def _counts(summary):
    return ', '.join('%d %s' % (n, s) for s, n in
                     sorted(summary['by_status'].items()))


def table(caps, summary):
    """A short terminal table."""
    width = max(len(c['id']) for c in caps) if caps else 10
    header = (width, 'capability', 'status', 'expected', 'tests', 'reqs')
    rows = ['%-*s  %-15s %-9s %5s %6s' % header]
    for cap in caps:
        rows.append('%-*s  %-15s %-9s %5d %6d' % (
            width, cap['id'], cap['status'], cap['expected'],
            len(cap['tests']), cap['gabbi_requests']))
    for cap in caps:
        if cap['explanation'] and (not cap['as_expected'] or
                                   cap['status'] == NOT_APPLICABLE):
            rows.append('  %s: %s' % (cap['id'], cap['explanation'][:400]))
    rows.append('release %s: %s capabilities (%d in scope): %s; %d tests, '
                '%d gabbi requests: %s' % (
                    _series(summary), summary['capabilities'],
                    summary['in_scope'], _counts(summary),
                    summary['tests_run'], summary['gabbi_requests'],
                    _verdict(summary)))
    return '\n'.join(rows)
