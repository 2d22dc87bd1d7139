"""Per-capability verdicts, and the JSON and Markdown reports.

A capability passes when every test behind it passes, fails when any
fails or did not run, and is skipped when all its tests skipped. What is
expected of it is 'pass', unless guidelines/ say otherwise: `expect:
{<profile>: fail|skip}` for a run profile (the legacy-quota contrast), or
`expected_fail: <reason>` where upstream itself gets the rule wrong. A
failure that is expected is reported 'expected-fail'; a pass where a
failure was expected is 'unexpected-pass'. A run is as expected when no
capability is 'fail' or 'unexpected-pass', and none is an unexpected
'skip' (skips are allowed against a vendor's cloud).
"""

import json
import os

BAD = ('fail', 'unexpected-pass')


def expected_status(cap, profile):
    expect = (cap.get('expect') or {}).get(profile)
    if expect:
        return expect
    return 'fail' if cap.get('expected_fail') else 'pass'


def verdicts(capabilities, results, profile='default'):
    out = []
    for cap in capabilities:
        tests = []
        for test_id in cap['tests']:
            result = results.get(test_id, {
                'name': None, 'status': 'fail', 'requests': 0,
                'reason': 'test %s did not run' % test_id})
            tests.append(dict(result, id=test_id))
        statuses = set(t['status'] for t in tests)
        if 'fail' in statuses:
            status = 'fail'
        elif statuses == {'skip'}:
            status = 'skip'
        else:
            status = 'pass'
        expected = expected_status(cap, profile)
        if expected == 'fail':
            status = {'fail': 'expected-fail',
                      'pass': 'unexpected-pass'}.get(status, status)
        out.append({
            'id': cap['id'], 'seed': cap['seed'], 'feature': cap['feature'],
            'rule': cap['rule'], 'status': status, 'expected': expected,
            'disruptive': cap['disruptive'],
            'expected_fail_reason': cap.get('expected_fail') or None,
            'gabbi_requests': sum(t['requests'] for t in tests),
            'tests': tests,
        })
    return out


def summarise(caps, results, target, allow_skips, duration=None):
    counts = {}
    for cap in caps:
        counts[cap['status']] = counts.get(cap['status'], 0) + 1
    unexpected = [c['id'] for c in caps if c['status'] in BAD or (
        c['status'] == 'skip' and c.get('expected') != 'skip'
        and not allow_skips)]
    known = set(t['id'] for c in caps for t in c['tests'])
    unmapped = sorted(k for k in results if k not in known)
    return {
        'target': target,
        'capabilities': len(caps),
        'by_status': counts,
        'tests_run': len(results),
        'gabbi_requests': sum(r['requests'] for r in results.values()),
        'unexpected': unexpected,
        'tests_without_capability': unmapped,
        'as_expected': not unexpected and not unmapped,
        'duration_s': round(duration, 1) if duration else None,
    }


def write(workdir, caps, summary):
    os.makedirs(workdir, exist_ok=True)
    json_path = os.path.join(workdir, 'report.json')
    with open(json_path, 'w') as f:
        json.dump({'capabilities': caps, 'summary': summary}, f, indent=2)
    md_path = os.path.join(workdir, 'report.md')
    with open(md_path, 'w') as f:
        f.write(markdown(caps, summary))
    return json_path, md_path


def markdown(caps, summary):
    lines = ['# Conformance report', '',
             'Target: %s' % summary['target'], '',
             '| capability | seed | status | tests | gabbi requests |',
             '|---|---|---|---|---|']
    for cap in caps:
        lines.append('| %s%s | %s | **%s** | %d | %d |' % (
            cap['id'], ' (disruptive)' if cap['disruptive'] else '',
            cap['seed'].split('_')[0], cap['status'], len(cap['tests']),
            cap['gabbi_requests']))
    lines += ['', 'Summary: %s capabilities %s; %d tests; %d gabbi requests; '
              '%s.' % (summary['capabilities'], _counts(summary),
                       summary['tests_run'], summary['gabbi_requests'],
                       'as expected' if summary['as_expected']
                       else 'NOT as expected')]
    details = [c for c in caps if c['status'] not in ('pass',)]
    if details:
        lines += ['', '## Not passing', '']
        for cap in details:
            lines += ['### %s: %s' % (cap['id'], cap['status']), '',
                      'Rule: %s' % cap['rule'], '']
            if cap['expected_fail_reason']:
                lines += ['Expected to fail: %s' % cap['expected_fail_reason'],
                          '']
            for test in cap['tests']:
                if test['status'] != 'pass':
                    lines += ['- `%s`: %s' % (
                        test['name'] or test['id'], test['status'])]
                    if test['reason']:
                        lines += ['', '```', test['reason'], '```', '']
    if summary['tests_without_capability']:
        lines += ['', 'Tests that no capability claims: %s' % ', '.join(
            summary['tests_without_capability'])]
    return '\n'.join(lines) + '\n'


def _counts(summary):
    return ', '.join('%d %s' % (n, s) for s, n in
                     sorted(summary['by_status'].items()))


def table(caps, summary):
    """A short terminal table."""
    width = max(len(c['id']) for c in caps) if caps else 10
    header = (width, 'capability', 'status', 'tests', 'reqs')
    rows = ['%-*s  %-15s %5s %6s' % header]
    for cap in caps:
        rows.append('%-*s  %-15s %5d %6d' % (
            width, cap['id'], cap['status'], len(cap['tests']),
            cap['gabbi_requests']))
    rows.append('%s capabilities: %s; %d tests, %d gabbi requests: %s' % (
        summary['capabilities'], _counts(summary), summary['tests_run'],
        summary['gabbi_requests'],
        'as expected' if summary['as_expected'] else
        'NOT as expected (%s)' % ', '.join(
            summary['unexpected'] + summary['tests_without_capability'])))
    return '\n'.join(rows)
