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

"""report/html.py and tools/report_browser.py: the page has every
capability with its verdict and evidence, escapes what the cloud said,
loads nothing from elsewhere, and check() finds a page that does not say
what report.json says."""

import hashlib
import html.parser
import io
import json
import os

import fixtures
import testtools

from conformance_tests.report import build
from conformance_tests.report import files
from conformance_tests.report import html as html_report

T1, T2, T3, T4, T5 = 'id-1', 'id-2', 'id-3', 'id-4', 'id-5'
SIG = r'usage still counts its \d servers'
SCRIPT = 'quota <script>alert("x")</script> & more'
NO_SENLIN = ('senlin is not available: set [service_available] senlin = '
             'true')


def _cap(cap_id, tests, seed='003_quota.txt', expected_fail=None):
    return {'id': cap_id, 'seed': seed, 'feature': 'feature of %s' % seed,
            'rule': 'rule of %s: <b>never</b> more' % cap_id,
            'tests': list(tests), 'expected_fail': expected_fail,
            'expect': {}, 'by_release': {}, 'no_mutant': None,
            'disruptive': False}


def _res(status, message='', kind=None):
    if status == 'fail' and kind is None:
        kind = 'assertion'
    return {'name': 'pkg.Class.test_%s' % status, 'status': status,
            'kind': kind, 'message': message, 'requests': 1,
            'reason': message}


def fixture():
    """(caps, summary) with one capability of each kind of evidence."""
    results = {T1: _res('pass'), T2: _res('fail', SCRIPT),
               T3: _res('fail', 'usage still counts its 3 servers'),
               T4: _res('skip', NO_SENLIN)}
    caps = build.verdicts(
        [_cap('a.pass', [T1]), _cap('b.fail', [T2]),
         _cap('c.xfail', [T3], expected_fail={
             'status': 'fail', 'signature': SIG,
             'reason': 'upstream counts from the cells'}),
         _cap('d.na', [T4], seed='002_senlin.txt'),
         _cap('e.out', [T5], seed='002_senlin.txt')],
        results, scope={'a.pass', 'b.fail', 'c.xfail', 'd.na'})
    summary = build.summarise(caps, results, 'embedded cloud, profile '
                              'default (nova 34.0.0)', False, 12.3)
    summary.update(profile='default', versions={'nova': '34.0.0'})
    return caps, summary


def _report_bytes(caps, summary):
    return json.dumps({'capabilities': caps, 'summary': summary},
                      indent=2).encode()


class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


class RenderTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.caps, self.summary = fixture()
        self.data = _report_bytes(self.caps, self.summary)
        self.sha = hashlib.sha256(self.data).hexdigest()
        self.page = html_report.render(self.caps, self.summary, self.sha)

    def test_every_capability_with_its_verdict_and_expectation(self):
        rows, twice, sha = html_report.read(self.page)
        self.assertEqual(([], self.sha), (twice, sha))
        self.assertEqual(
            {c['id']: (c['status'], c['status'], c['expected'],
                       c['expected']) for c in self.caps},
            {i: (r['verdict'], r['shown verdict'], r['expected'],
                 r['shown expected']) for i, r in rows.items()})
        self.assertEqual('expected-fail', rows['c.xfail']['verdict'])
        self.assertEqual('fail', rows['c.xfail']['expected'])
        self.assertEqual('false', rows['b.fail']['as_expected'])

    def test_evidence_of_each_verdict(self):
        # the failed assertion's message, escaped
        self.assertIn('quota &lt;script&gt;alert(&quot;x&quot;)&lt;/script'
                      '&gt; &amp; more', self.page)
        # the expected failure's signature and upstream cause
        self.assertIn('/usage still counts its \\d servers/', self.page)
        self.assertIn('Expected because: upstream counts from the cells',
                      self.page)
        self.assertIn('Not applicable: service not available: senlin',
                      self.page)
        self.assertIn('not in this run\'s scope', self.page)
        self.assertIn('every test passed (1)', self.page)

    def test_rules_in_the_seeds_words_grouped_by_seed(self):
        self.assertIn('rule of b.fail: &lt;b&gt;never&lt;/b&gt; more',
                      self.page)
        self.assertIn('seed 003_quota.txt: feature of 003_quota.txt',
                      self.page)
        self.assertLess(self.page.index('data-seed="003_quota.txt"'),
                        self.page.index('data-seed="002_senlin.txt"'))

    def test_markup_from_the_cloud_is_escaped(self):
        self.assertNotIn('<script', self.page)
        self.assertNotIn('<b>', self.page)

    def test_no_external_asset(self):
        parser = _Tags()
        parser.feed(self.page)
        for tag, attrs in parser.tags:
            self.assertNotIn(tag, ('script', 'link', 'img', 'iframe'))
            for name in ('src', 'href'):
                self.assertNotIn(name, attrs, tag)
        self.assertNotIn('://', self.page.split('<body>')[0])

    def test_what_was_judged_and_how_to_verify(self):
        for text in ('embedded cloud, profile default (nova 34.0.0)',
                     build._series(self.summary), 'nova 34.0.0',
                     'embedded cloud, admin', 'NOT as expected (b.fail)',
                     'conformance verify-bundle bundle.tar.gz',
                     'sha256sum bundle.tar.gz', 'bundle.tar.gz.sha256',
                     self.sha):
            self.assertIn(html.escape(text), self.page)
        self.assertIn('<dt>Profile</dt><dd>default</dd>', self.page)

    def test_accounts(self):
        accounts = html_report.accounts
        self.assertTrue(accounts({'target': 't', 'preflight': {
            'credentials': {'mode': 'dynamic', 'about': 'as the admin',
                            'admin': {'user': 'boss'}}}}).startswith(
            'admin: dynamic credentials as boss'))
        member = {'admin': False}
        self.assertTrue(accounts({'target': 't', 'preflight': {
            'credentials': {'mode': 'pre-provisioned', 'about': 'f',
                            'admin': None, 'accounts': [member, member]}}}
        ).startswith('member: pre-provisioned, 2 accounts (0 admin, 2 '
                     'member)'))
        self.assertTrue(accounts({'target': 'embedded cloud, x'}).startswith(
            'embedded cloud, admin'))
        self.assertTrue(accounts({'target': 'cloud of x'}).startswith(
            'not recorded'))

    def test_a_vendor_clouds_preflight_is_listed(self):
        self.summary.pop('versions')
        self.summary['target'] = 'cloud of /x/tempest.conf'
        self.summary['preflight'] = {
            'identity': {'uri_v3': 'http://k/v3', 'version': 'v3.14'},
            'credentials': {'mode': 'pre-provisioned', 'about': 'f',
                            'admin': None, 'accounts': [{'admin': False}]},
            'services': [], 'not_enabled': [], 'seconds': 0.4}
        page = html_report.render(self.caps, self.summary, self.sha)
        self.assertIn('The cloud (preflight)', page)
        self.assertIn('[identity] uri_v3 http://k/v3', page)
        self.assertIn('member: pre-provisioned, 1 account (0 admin', page)


class CheckTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.caps, self.summary = fixture()
        self.data = _report_bytes(self.caps, self.summary)
        self.page = html_report.render(
            self.caps, self.summary, hashlib.sha256(self.data).hexdigest())

    def test_the_page_says_what_report_json_says(self):
        self.assertEqual([], html_report.check(self.page, self.data))

    def test_a_changed_verdict_is_one_line(self):
        page = self.page.replace('data-verdict="expected-fail"',
                                 'data-verdict="pass"')
        self.assertEqual(['report.html: capability c.xfail: the page\'s '
                          'data-verdict is pass, report.json\'s '
                          'expected-fail'],
                         html_report.check(page, self.data))

    def test_a_changed_shown_verdict_is_one_line(self):
        page = self.page.replace('<td class="verdict">fail</td>',
                                 '<td class="verdict">pass</td>')
        self.assertEqual(['report.html: capability b.fail: the page\'s '
                          'verdict cell is pass, report.json\'s fail'],
                         html_report.check(page, self.data))

    def test_a_changed_expectation_is_one_line(self):
        page = self.page.replace('data-expected="fail"',
                                 'data-expected="pass"')
        self.assertEqual(['report.html: capability c.xfail: the page\'s '
                          'data-expected is pass, report.json\'s fail'],
                         html_report.check(page, self.data))

    def test_another_reports_page_is_one_line(self):
        other = self.data.replace(b'"b.fail"', b'"b.other"')
        problems = html_report.check(self.page, other)
        self.assertEqual(1, len(problems), problems)
        self.assertTrue(problems[0].startswith(
            'report.html: renders the report.json of sha256 %s, not this '
            'one' % hashlib.sha256(self.data).hexdigest()), problems)

    def test_a_missing_and_an_extra_row(self):
        data = self.data.replace(b'"e.out"', b'"e.renamed"')
        page = html_report.render(
            self.caps, self.summary, hashlib.sha256(data).hexdigest())
        self.assertEqual([
            'report.html: capability e.renamed: in report.json, not on the '
            'page', 'report.html: capability e.out: on the page, not in '
            'report.json'], html_report.check(page, data))

    def test_write_puts_the_page_beside_the_report(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        json_path, md_path, html_path, _ = files.write(workdir, self.caps,
                                                       self.summary)
        with open(json_path, 'rb') as f, open(html_path) as g:
            self.assertEqual([], html_report.check(g.read(), f.read()))


class BrowserCheckTest(testtools.TestCase):
    """tools/report_browser.py against a stand-in browser that prints a
    given page as its DOM."""

    def browser(self, directory, page):
        path = os.path.join(directory, 'fake-chromium')
        with open(path, 'w') as f:
            f.write('#!/bin/sh\ncat %s\n' % page)
        os.chmod(path, 0o700)
        return path

    def test_rendered_page_matches_or_differs(self):
        from conformance_tests.tools import report_browser
        directory = self.useFixture(fixtures.TempDir()).path
        caps, summary = fixture()
        paths = files.write(directory, caps, summary)
        self.assertEqual(([], 5), report_browser.check(
            directory, self.browser(directory, paths[2])))
        wrong = os.path.join(directory, 'wrong.html')
        with open(paths[2]) as f, open(wrong, 'w') as g:
            g.write(f.read().replace('data-verdict="not-applicable"',
                                     'data-verdict="pass"'))
        problems, count = report_browser.check(
            directory, self.browser(directory, wrong))
        self.assertEqual(['report.html: capability d.na: the page\'s '
                          'data-verdict is pass, report.json\'s '
                          'not-applicable'], problems)

    def test_no_report_is_exit_2(self):
        from conformance_tests.tools import report_browser
        directory = self.useFixture(fixtures.TempDir()).path
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        self.assertEqual(2, report_browser.main([directory]))
        self.assertEqual('report_browser: no report.json in %s: run '
                         '`conformance run` first\n' % directory,
                         err.getvalue())
