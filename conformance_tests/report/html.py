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

"""report.html: the report as a certificate someone can read without
Python.

A vendor hands the bundle to people who will not run `conformance`:
report.json is for tools and report.md needs a renderer. This page is
one self-contained file (inline CSS, no script, no external asset, so it
opens the same offline in any browser years later) saying what was
judged (target, series, upstream versions, profile, accounts), each
capability's rule in its seed's words, its verdict, what was expected
and the evidence, and how to check the bundle it came in.

It is also read back: each capability row carries ``data-capability``,
``data-verdict``, ``data-expected`` and ``data-as-expected``, and the
page carries the sha256 of the report.json it renders, so check() (run
by `conformance verify-bundle` and tools/report_browser.py) shows that
the page says what report.json says. The page cannot hold its own
bundle's sha256 (the bundle holds the page): it says where to find it.
"""

import hashlib
import html
import html.parser
import json

from conformance_tests.report import build

NAME = 'report.html'
SHA_ATTR = 'data-report-json-sha256'
# A traceback's message is evidence, but a page of one is not readable;
# the whole of it is in the bundle's results.subunit.
MAX_MESSAGE = 4000
_STYLE = (
    'body{font:14px/1.4 sans-serif;margin:2em;max-width:80em}'
    'table{border-collapse:collapse;width:100%}'
    'th,td{border:1px solid #999;padding:4px 6px;text-align:left;'
    'vertical-align:top}'
    'tr.seed th{background:#ddd}'
    'td.verdict{font-weight:bold}'
    'tr.v-pass td.verdict,tr.v-expected-fail td.verdict{color:#060}'
    'tr.v-fail td.verdict,tr.v-unexpected-pass td.verdict{color:#a00}'
    'tr.unexpected{background:#fdd}'
    'pre{white-space:pre-wrap;margin:2px 0;font-size:12px}'
    'dt{font-weight:bold}dd{margin:0 0 .5em 1.5em}'
    'code{word-break:break-all}')


def _e(text):
    return html.escape('' if text is None else str(text))


def accounts(summary):
    """Whose rights the tests ran with, as far as the report knows: the
    preflight's credentials (a vendor's cloud), else the embedded
    cloud's dynamic credentials (its tempest.conf always has them)."""
    found = (summary.get('preflight') or {}).get('credentials')
    if found and found.get('mode') == 'dynamic':
        admin = found.get('admin') or {}
        return 'admin: dynamic credentials as %s (%s)' % (
            admin.get('user', '?'), found.get('about', ''))
    if found:
        listed = found.get('accounts') or []
        admins = sum(1 for a in listed if a.get('admin'))
        mode = ('member' if not admins else 'admin' if admins == len(listed)
                else 'admin and member')
        return '%s: pre-provisioned, %d account%s (%d admin, %d member), ' \
            '%s' % (mode, len(listed), '' if len(listed) == 1 else 's',
                    admins, len(listed) - admins, found.get('about', ''))
    if summary.get('versions') or str(summary.get('target', '')).startswith(
            'embedded cloud'):
        return ('embedded cloud, admin: dynamic credentials (Tempest creates '
                'a project and users per test class as the admin)')
    return 'not recorded (the report has no preflight findings)'


def _message(text):
    text = (text or '').strip()
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + '\n... (cut; all of it is in ' \
            'results.subunit)'
    return '<pre>%s</pre>' % _e(text) if text else ''


def evidence(cap):
    """HTML of what shows the verdict: a failure's assertion message, a
    skip's or not-applicable's reason, an expected failure's signature
    and upstream cause."""
    status = cap['status']
    if status == build.NOT_IN_SCOPE:
        return 'not in this run\'s scope: its tests were not run'
    out = []
    if status == build.NOT_APPLICABLE:
        out.append('<p>Not applicable: %s</p>' % _e(cap['explanation']))
    if cap['expected'] != 'pass':
        out.append('<p>Expected %s matching <code>/%s/</code></p>' % (
            _e(cap['expected']), _e(cap['signature'])))
    if cap.get('expected_reason'):
        out.append('<p>Expected because: %s</p>' % _e(
                cap['expected_reason']))
    if cap['explanation'] and status != build.NOT_APPLICABLE:
        out.append('<p>Not as expected: %s</p>' % _e(cap['explanation']))
    tests = cap.get('tests') or []
    for test in tests:
        if test.get('status') in ('fail', 'skip'):
            out.append('<div class="test"><code>%s</code>: %s%s%s</div>' % (
                _e(test.get('name') or test.get('id')), _e(test['status']),
                ' (%s)' % _e(test['kind']) if test.get('kind') else '',
                _message(test.get('message'))))
    if status == 'pass' and not out:
        out.append('every test passed (%d)' % len(tests))
    return ''.join(out)


def _row(cap):
    classes = 'v-%s%s' % (cap['status'],
                          '' if cap['as_expected'] else ' unexpected')
    return (
        '<tr class="%s" data-capability="%s" data-verdict="%s" '
        'data-expected="%s" data-as-expected="%s"><td><code>%s</code>%s</td>'
        '<td>%s</td><td class="verdict">%s</td><td class="expected">%s</td>'
        '<td>%s</td><td>%s</td></tr>' % (
            _e(classes), _e(cap['id']), _e(cap['status']),
            _e(cap['expected']), _bool(cap['as_expected']), _e(cap['id']),
            ' (disruptive)' if cap.get('disruptive') else '',
            _e(cap['rule']), _e(cap['status']), _e(cap['expected']),
            'yes' if cap['as_expected'] else 'NO', evidence(cap)))


def _bool(value):
    return 'true' if value else 'false'


def _table(caps):
    seeds = []
    for cap in caps:
        if cap['seed'] not in [s for s, _ in seeds]:
            seeds.append((cap['seed'], cap.get('feature') or ''))
    body = []
    for seed, feature in seeds:
        body.append('<tbody data-seed="%s"><tr class="seed"><th colspan="6">'
                    'seed %s: %s</th></tr>%s</tbody>' % (
                        _e(seed), _e(seed), _e(feature), ''.join(
                            _row(c) for c in caps if c['seed'] == seed)))
    return ('<table id="capabilities"><thead><tr><th>capability</th>'
            '<th>rule</th><th>verdict</th><th>expected</th>'
            '<th>as expected</th><th>evidence</th></tr></thead>%s</table>' %
            ''.join(body))


def _facts(summary):
    versions = summary.get('versions') or {}
    facts = [
        ('Target', summary['target']),
        ('Judged by the expectations of series', build._series(summary)),
        ('Upstream versions', ', '.join(
            '%s %s' % kv for kv in versions.items()) or
         'not recorded (a vendor\'s cloud: see the preflight below)'),
        ('Profile', summary.get('profile') or 'default'),
        ('Accounts', accounts(summary)),
        ('Result', '%s capabilities (%d in scope): %s; %s' % (
            summary['capabilities'], summary['in_scope'],
            build._counts(summary), build._verdict(summary))),
        ('Tests', '%d run, %d gabbi requests%s' % (
            summary['tests_run'], summary['gabbi_requests'],
            ', %s s' % summary['duration_s'] if summary.get('duration_s')
            else '')),
        ('Skips', 'allowed (a vendor\'s cloud)' if summary.get(
            'skips_allowed') else 'not allowed'),
    ]
    if summary.get('required'):
        facts.append(('Required', ', '.join(summary['required'])))
    return '<dl>%s</dl>' % ''.join('<dt>%s</dt><dd>%s</dd>' % (
        _e(k), _e(v)) for k, v in facts)


def _lists(summary):
    out = []
    if summary.get('preflight'):
        from conformance_tests import preflight
        out.append('<h2>The cloud (preflight)</h2><ul>%s</ul>' % ''.join(
            '<li>%s</li>' % _e(line)
            for line in preflight.summary(summary['preflight'])))
    if summary.get('tests_without_capability'):
        out.append('<p>Tests that no capability claims: %s</p>' % _e(
            ', '.join(summary['tests_without_capability'])))
    if summary.get('inventory_differences'):
        out.append('<h2>Left behind (inventory after the run)</h2><ul>%s'
                   '</ul>' % ''.join(
                       '<li>%s: added %s; removed %s</li>' % (
                           _e(kind), _e(', '.join(d['added'][:20]) or
                                        'nothing'),
                           _e(', '.join(d['removed'][:20]) or 'nothing'))
                       for kind, d in
                       summary['inventory_differences'].items()))
    return ''.join(out)


def _verify(report_json_sha256):
    return (
        '<h2>Checking this page and its bundle</h2>'
        '<p>This page renders the report.json whose sha256 is <code id='
        '"report-json-sha256" %s="%s">%s</code> (<code>sha256sum '
        'report.json</code> in the unpacked bundle).</p>'
        '<p>It cannot hold the sha256 of the bundle it travels in, which '
        'holds the page. <code>conformance bundle</code> prints that sum '
        'and writes it beside the bundle, in <code>bundle.tar.gz.sha256'
        '</code>: <code>sha256sum bundle.tar.gz</code> must print the same '
        '(<code>sha256sum -c bundle.tar.gz.sha256</code>). Then <code>'
        'conformance verify-bundle bundle.tar.gz</code> checks every '
        'member against the bundle\'s MANIFEST.sha256, recomputes every '
        'verdict from the bundle\'s subunit stream and guidelines, and '
        'checks that this page says what report.json says.</p>' % (
            SHA_ATTR, _e(report_json_sha256), _e(report_json_sha256)))


def render(caps, summary, report_json_sha256):
    """The page of ``caps`` and ``summary`` (report.json's), naming the
    sha256 of the report.json they were written to."""
    title = 'Conformance report: %s' % summary['target']
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<title>%s</title><style>%s</style></head><body>'
        '<h1>OpenStack conformance report</h1>%s%s<h2>Capabilities</h2>%s'
        '%s</body></html>\n' % (
            _e(title), _STYLE, _facts(summary), _lists(summary),
            _table(caps), _verify(report_json_sha256)))


class _Reader(html.parser.HTMLParser):
    """render()'s rows and report.json sha256, read back from a page (or
    a browser's DOM of it)."""

    def __init__(self):
        super().__init__()
        self.rows, self.twice, self.sha256 = {}, [], None
        self._row = self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if SHA_ATTR in attrs:
            self.sha256 = attrs[SHA_ATTR]
        if tag == 'tr' and 'data-capability' in attrs:
            self._row = {'verdict': attrs.get('data-verdict'),
                         'expected': attrs.get('data-expected'),
                         'as_expected': attrs.get('data-as-expected'),
                         'shown verdict': '', 'shown expected': ''}
            if attrs['data-capability'] in self.rows:
                self.twice.append(attrs['data-capability'])
            self.rows[attrs['data-capability']] = self._row
        elif tag == 'td' and self._row is not None:
            kind = attrs.get('class')
            self._cell = ('shown %s' % kind
                          if kind in ('verdict', 'expected') else None)

    def handle_data(self, data):
        if self._row is not None and self._cell:
            self._row[self._cell] += data

    def handle_endtag(self, tag):
        if tag == 'td':
            self._cell = None
        elif tag == 'tr':
            self._row = None


def read(page):
    """({capability id: {'verdict', 'expected', 'as_expected', 'shown
    verdict', 'shown expected'}}, ids found twice, report.json sha256)."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    for row in reader.rows.values():
        for key in ('shown verdict', 'shown expected'):
            row[key] = row[key].strip()
    return reader.rows, reader.twice, reader.sha256


# (what the page holds, report.json's field, how a line names it)
_FIELDS = (('verdict', 'status', 'data-verdict'),
           ('shown verdict', 'status', 'verdict cell'),
           ('expected', 'expected', 'data-expected'),
           ('shown expected', 'expected', 'expected cell'),
           ('as_expected', 'as_expected', 'data-as-expected'))


def _mismatch(cap, row):
    """What the page says of ``cap`` that report.json does not, or None:
    the first difference is enough to name the capability."""
    for key, field, name in _FIELDS:
        want = cap.get(field)
        if field == 'as_expected':
            want = _bool(want)
        if row[key] != want:
            return 'the page\'s %s is %s, report.json\'s %s' % (
                name, row[key], want)
    return None


def check(page, report_json):
    """One line per way ``page`` (text) differs from ``report_json`` (the
    bytes it renders); [] when it says the same."""
    rows, twice, sha = read(page)
    want = hashlib.sha256(report_json).hexdigest()
    if sha != want:
        # Another report's page: comparing its rows adds nothing.
        return ['%s: renders the report.json of sha256 %s, not this one '
                '(%s)' % (NAME, sha or '(none on the page)', want)]
    try:
        caps = {c['id']: c for c in json.loads(report_json)['capabilities']}
    except (ValueError, KeyError, TypeError, AttributeError):
        return ['%s: not checked: report.json is not a report' % NAME]
    problems = ['%s: capability %s: on the page twice' % (NAME, i)
                for i in twice]
    for cap_id in sorted(set(caps) - set(rows)):
        problems.append('%s: capability %s: in report.json, not on the '
                        'page' % (NAME, cap_id))
    for cap_id in sorted(set(rows) - set(caps)):
        problems.append('%s: capability %s: on the page, not in '
                        'report.json' % (NAME, cap_id))
    for cap_id in sorted(set(rows) & set(caps)):
        found = _mismatch(caps[cap_id], rows[cap_id])
        if found:
            problems.append('%s: capability %s: %s' % (NAME, cap_id, found))
    return problems
