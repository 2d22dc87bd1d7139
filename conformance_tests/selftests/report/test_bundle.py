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

"""report/bundle.py and cmd/bundle.py: a certification bundle round-trips,
keeps no secret, is private, and every kind of tampering is caught (an
edited verdict even when the manifest was rewritten to match, since each
verdict is recomputed from the stream and the guidelines)."""

import argparse
import io
import json
import os
import stat
import tarfile

import fixtures
import subunit
import testtools

from conformance_tests.cmd import bundle as bundle_cmd
from conformance_tests.report import build
from conformance_tests.report import bundle
from conformance_tests.report import files
from conformance_tests.report import guidelines
from conformance_tests.report import html
from conformance_tests.report import results

ID_A = '5a0e7d1c-1111-4a11-8a11-111111111111'
ID_B = '5a0e7d1c-2222-4b22-8b22-222222222222'
ID_C = '5a0e7d1c-3333-4c33-8c33-333333333333'
PREFIX = 'conformance_tests.api.x.T.'
NAME_A = '%stest_a[id-%s]' % (PREFIX, ID_A)
NAME_B = '%stest_b[id-%s,slow]' % (PREFIX, ID_B)
ACCOUNTS_SECRET = 'acc0unts-pa55word'

GUIDELINE = """\
seed: 009_selftest.txt
feature: a feature for the bundle self-test
capabilities:
  - id: t.passes
    rule: the cloud does A
    tests: [%s]
  - id: t.upstream-breaks
    rule: the cloud does B
    tests: [%s]
    expected_fail:
      reason: upstream does not do B
      signature: 'spec rule broken: B'
  - id: t.not-selected
    rule: the cloud does C
    tests: [%s]
""" % (ID_A, ID_B, ID_C)

TRACEBACK = (b'Traceback (most recent call last):\n'
             b'  File "x.py", line 1, in test_b\n'
             b'AssertionError: spec rule broken: B is ignored\n')

TEMPEST_CONF = """\
[DEFAULT]
log_dir = /tmp/logs

[auth]
admin_username = admin
admin_password = s3cret
test_accounts_file = %s

[identity]
uri_v3 = http://127.0.0.1:5000/v3

[dashboard]
dashboard_url = http://admin:s3cret@127.0.0.1/
login_url = https://viewer:only-1n-the-url@127.0.0.1/login

[conformance]
fault_control_token = t0k

[compute-feature-enabled]
change_password = true

[validation]
image_ssh_password = s3cret
"""


def _stream(names_and_outcomes):
    buf = io.BytesIO()
    out = subunit.v2.StreamResultToBytes(buf)
    for name, outcome in names_and_outcomes:
        out.status(test_id=name, test_status='inprogress')
        if outcome == 'fail':
            out.status(test_id=name, file_name='traceback',
                       file_bytes=TRACEBACK, eof=True,
                       mime_type='text/plain;charset=utf8')
        out.status(test_id=name, test_status=outcome)
    return buf.getvalue()


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb' if isinstance(data, bytes) else 'w') as f:
        f.write(data)


def fake_run(root):
    """A workdir as `conformance run` leaves it, judged by the real
    report code; returns (workdir, guideline files)."""
    workdir = os.path.join(root, 'work')
    gdir = os.path.join(root, 'guidelines')
    _write(os.path.join(gdir, '009-selftest.yaml'), GUIDELINE)
    stream = os.path.join(workdir, bundle.SUBUNIT)
    _write(stream, _stream([(NAME_A, 'success'), (NAME_B, 'fail')]))
    res = results.read_file(stream)
    caps = build.verdicts(guidelines.load_all(directory=gdir), res,
                          'default', scope={'t.passes', 't.upstream-breaks'})
    summary = build.summarise(caps, res, 'a test cloud', False, 12.34)
    summary['profile'] = 'default'
    files.write(workdir, caps, summary)
    workspace = os.path.join(workdir, 'workspace')
    _write(os.path.join(workspace, bundle.SELECTED),
           '%s\n%s\n' % (NAME_A, NAME_B))
    accounts = os.path.join(workdir, 'accounts.yaml')
    _write(accounts, '- username: u\n  password: %s\n' % ACCOUNTS_SECRET)
    _write(os.path.join(workspace, 'etc', 'tempest.conf'),
           TEMPEST_CONF % accounts)
    _write(os.path.join(workdir, bundle.PREFLIGHT), '{"ok": true}\n')
    return workdir, guidelines.guideline_files(gdir)


def members_of(path):
    with tarfile.open(path) as tar:
        return {i.name: tar.extractfile(i).read() for i in tar
                if i.isfile()}


def rewrite(path, edit, manifest=True, suite=False):
    """Tamper: ``edit`` the members dict, then, as a careful forger
    would, render report.html again of an edited report.json that
    parses, and rewrite the guidelines digest (``suite``) and the
    manifest."""
    members = members_of(path)
    report_json = members.get(bundle.REPORT)
    edit(members)
    if members.get(bundle.REPORT) != report_json:
        try:
            report = json.loads(members[bundle.REPORT])
            members[bundle.REPORT_HTML] = html.render(
                report['capabilities'], report['summary'],
                bundle.sha256(members[bundle.REPORT])).encode()
        except (KeyError, TypeError, ValueError):
            pass  # not a report: the page stays
    if suite:
        meta = json.loads(members[bundle.SUITE])
        meta['guidelines_sha256'] = bundle.guidelines_digest(members)
        members[bundle.SUITE] = json.dumps(meta).encode()
    if manifest:
        members[bundle.MANIFEST] = bundle.sums(
            {n: d for n, d in members.items()
             if n != bundle.MANIFEST}).encode()
    bundle.write(path, members, 0)


class BundleTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.workdir, self.files = fake_run(self.root)
        self.path, self.names = bundle.make(self.workdir,
                                            guideline_files=self.files)

    def verify(self):
        problems, counts = bundle.verify(self.path)
        return problems

    def run_cmd(self, func, args, **kwargs):
        out, err = [], []
        code = func(args, say=out.append, fail=err.append, **kwargs)
        return code, out, err

    def test_round_trip(self):
        problems, counts = bundle.verify(self.path)
        self.assertEqual([], problems)
        self.assertEqual({'members': len(self.names) - 1,
                          'capabilities': 3}, counts)

    def test_members(self):
        self.assertEqual(os.path.join(self.workdir, 'bundle.tar.gz'),
                         self.path)
        self.assertEqual(sorted([
            'report.json', 'report.md', 'report.html', 'results.subunit',
            'selected-tests.txt', 'tempest.conf', 'preflight.json',
            'guidelines/009-selftest.yaml', 'suite.json',
            'MANIFEST.sha256']), self.names)
        members = members_of(self.path)
        with open(os.path.join(self.workdir, 'report.json'), 'rb') as f:
            self.assertEqual(f.read(), members['report.json'])
        self.assertIn(NAME_B, members['selected-tests.txt'].decode())

    def test_manifest_is_sha256sum_format(self):
        members = members_of(self.path)
        lines = members['MANIFEST.sha256'].decode().splitlines()
        self.assertEqual(len(members) - 1, len(lines))
        for line in lines:
            digest, name = line.split('  ', 1)
            self.assertEqual(bundle.sha256(members[name]), digest)

    def test_suite_json(self):
        meta = json.loads(members_of(self.path)['suite.json'])
        self.assertEqual(12.3, meta['run_duration_s'])
        self.assertNotIn(meta['version'], ('', 'unknown'))
        self.assertEqual(bundle.DISTRIBUTION, meta['distribution'])
        self.assertEqual(bundle.guidelines_digest(members_of(self.path)),
                         meta['guidelines_sha256'])
        self.assertTrue(meta['bundled_at'])

    def test_tempest_conf_has_no_secret(self):
        members = members_of(self.path)
        conf = members['tempest.conf'].decode()
        for secret in ('s3cret', 't0k', 'only-1n-the-url'):
            self.assertNotIn(secret, conf)
        self.assertIn('admin_password = <removed>', conf)
        self.assertIn('fault_control_token = <removed>', conf)
        self.assertIn('uri_v3 = http://127.0.0.1:5000/v3', conf)
        self.assertIn('admin_username = admin', conf)
        self.assertIn('login_url = https://<removed>@127.0.0.1/login', conf)
        # A flag named after a password is no secret: the receiver reads it.
        self.assertIn('change_password = true', conf)
        self.assertIn('image_ssh_password = <removed>', conf)
        for name, data in members.items():
            self.assertNotIn(ACCOUNTS_SECRET.encode(), data, name)

    def test_every_member_and_the_archive_are_0600(self):
        self.assertEqual(0o600, stat.S_IMODE(os.stat(self.path).st_mode))
        with tarfile.open(self.path) as tar:
            for info in tar:
                self.assertEqual(0o700 if info.isdir() else 0o600,
                                 info.mode, info.name)

    def test_guidelines_default_to_the_loaders(self):
        members = bundle.collect(self.workdir)
        real = guidelines.guideline_files()
        self.assertTrue(real)
        self.assertEqual(sorted('guidelines/' + os.path.basename(p)
                                for p in real),
                         sorted(n for n in members
                                if n.startswith('guidelines/')))

    def test_a_tempest_conf_that_does_not_parse_is_exit_2(self):
        _write(os.path.join(self.workdir, 'workspace', 'etc',
                            'tempest.conf'), 'admin_password = s3cret\n')
        code, out, err = self.run_cmd(
            bundle_cmd.cmd_bundle, argparse.Namespace(
                workdir=self.workdir, output=None),
            guideline_files=self.files)
        self.assertEqual((2, []), (code, out))
        self.assertEqual(1, len(err), err)
        self.assertIn('secrets cannot be removed', err[0])
        self.assertNotIn('s3cret', err[0])

    def test_a_verdict_edited_with_the_manifest_rewritten_fails(self):
        def edit(members):
            report = json.loads(members['report.json'])
            for cap in report['capabilities']:
                if cap['id'] == 't.upstream-breaks':
                    cap['status'] = 'pass'
            members['report.json'] = json.dumps(report).encode()
        rewrite(self.path, edit)
        self.assertEqual(['capability t.upstream-breaks: report says pass, '
                          'the stream gives expected-fail'], self.verify())

    def test_as_expected_edited_fails(self):
        def edit(members):
            report = json.loads(members['report.json'])
            report['capabilities'][0]['as_expected'] = False
            members['report.json'] = json.dumps(report).encode()
        rewrite(self.path, edit)
        self.assertEqual(['capability t.passes: report says not as '
                          'expected, the stream gives as expected'],
                         self.verify())

    def test_an_edit_without_the_manifest_is_caught_twice(self):
        rewrite(self.path, lambda m: m.update({
            'report.json': m['report.json'].replace(
                b'"expected-fail"', b'"pass"')}), manifest=False)
        problems = self.verify()
        self.assertIn('member report.json: its sha256 is not the '
                      'manifest\'s', problems)
        self.assertIn('capability t.upstream-breaks: report says pass, the '
                      'stream gives expected-fail', problems)

    def test_marked_not_in_scope_is_caught(self):
        # The scope comes from the report: the selected tests give it away.
        def edit(members):
            report = json.loads(members['report.json'])
            report['capabilities'][1]['status'] = 'not-in-scope'
            members['report.json'] = json.dumps(report).encode()
        rewrite(self.path, edit)
        self.assertEqual(['capability t.upstream-breaks: report says '
                          'not-in-scope, but the run selected its test %s' %
                          NAME_B], self.verify())

    def test_a_test_removed_from_the_stream_fails(self):
        rewrite(self.path, lambda m: m.update({
            'results.subunit': _stream([(NAME_B, 'fail')])}))
        self.assertEqual(['capability t.passes: report says pass, the '
                          'stream gives fail'], self.verify())

    def test_an_edited_guideline_status_fails(self):
        def edit(members):
            name = 'guidelines/009-selftest.yaml'
            members[name] = members[name].replace(
                b'expected_fail:', b'expected_fail_was:')
        rewrite(self.path, edit)
        problems = self.verify()
        self.assertIn('capability t.upstream-breaks: report says '
                      'expected-fail, the stream gives fail', problems)
        self.assertTrue(problems[0].startswith(
            'suite.json: guidelines sha256 '), problems)
        # With the digest rewritten too, recomputation still catches it.
        rewrite(self.path, lambda m: None, suite=True)
        self.assertEqual(['capability t.upstream-breaks: report says '
                          'expected-fail, the stream gives fail'],
                         self.verify())

    def test_an_edited_guideline_test_list_fails(self):
        def edit(members):
            name = 'guidelines/009-selftest.yaml'
            members[name] = members[name].replace(
                ('tests: [%s]' % ID_A).encode(),
                ('tests: [%s]' % ID_C).encode())
        rewrite(self.path, edit, suite=True)
        self.assertEqual(['capability t.passes: report says pass, the '
                          'stream gives fail'], self.verify())

    def test_a_missing_member_fails(self):
        rewrite(self.path, lambda m: m.pop('results.subunit'),
                manifest=False)
        self.assertEqual([
            'member results.subunit: in the manifest, missing from the '
            'bundle', 'verdicts not recomputed: no results.subunit'],
            self.verify())

    def test_a_member_missing_from_the_manifest_too_fails(self):
        rewrite(self.path, lambda m: m.pop('tempest.conf'))
        self.assertEqual(['member tempest.conf: missing (nor in the '
                          'manifest)'], self.verify())

    def test_an_extra_member_fails(self):
        rewrite(self.path, lambda m: m.update({'extra.txt': b'x'}),
                manifest=False)
        self.assertEqual(['member extra.txt: not in the manifest'],
                         self.verify())

    def test_an_unredacted_tempest_conf_is_reported(self):
        rewrite(self.path, lambda m: m.update({
            'tempest.conf': b'[auth]\nadmin_password = s3cret\n'}))
        self.assertEqual(['tempest.conf: [auth] admin_password still has a '
                          'value (a secret must read <removed>)'],
                         self.verify())

    def test_garbage_members_are_lines_not_tracebacks(self):
        rewrite(self.path, lambda m: m.update({
            'report.json': b'{"capabilities": [1]}',
            'results.subunit': b'not subunit'}))
        problems = self.verify()
        self.assertEqual(2, len(problems), problems)
        # the page renders the report that was there before
        self.assertTrue(problems[0].startswith(
            'report.html: renders the report.json of sha256 '), problems)
        self.assertTrue(problems[1].startswith('verdicts not recomputed: '))

    def test_the_bundles_sum_is_written_beside_it(self):
        with open(self.path, 'rb') as f:
            digest = bundle.sha256(f.read())
        with open(self.path + '.sha256') as f:
            self.assertEqual('%s  bundle.tar.gz\n' % digest, f.read())

    def test_the_page_renders_the_bundled_report(self):
        members = members_of(self.path)
        page = members['report.html'].decode()
        self.assertIn(bundle.sha256(members['report.json']), page)
        self.assertEqual([], html.check(page, members['report.json']))

    def test_a_verdict_edited_in_the_page_is_one_line(self):
        def edit(members):
            members['report.html'] = members['report.html'].replace(
                b'data-verdict="expected-fail"', b'data-verdict="pass"')
        rewrite(self.path, edit)
        self.assertEqual(['report.html: capability t.upstream-breaks: the '
                          'page\'s data-verdict is pass, report.json\'s '
                          'expected-fail'], self.verify())

    def test_a_page_of_another_report_is_one_line(self):
        members = members_of(self.path)
        want = bundle.sha256(members['report.json'])
        other = 'f' * 64

        def edit(members):
            members['report.html'] = members['report.html'].replace(
                want.encode(), other.encode())
        rewrite(self.path, edit)
        self.assertEqual(['report.html: renders the report.json of sha256 '
                          '%s, not this one (%s)' % (other, want)],
                         self.verify())

    def test_cli_page_tampered_is_exit_1_one_line(self):
        rewrite(self.path, lambda m: m.update({
            'report.html': m['report.html'].replace(
                b'<td class="verdict">pass</td>',
                b'<td class="verdict">fail</td>')}))
        code, out, err = self.run_cmd(bundle_cmd.cmd_verify_bundle,
                                      argparse.Namespace(file=self.path))
        self.assertEqual(1, code)
        self.assertEqual(['report.html: capability t.passes: the page\'s '
                          'verdict cell is fail, report.json\'s pass'], out)
        self.assertEqual(1, len(err))

    def test_an_unsafe_member_name_is_not_unpacked(self):
        rewrite(self.path, lambda m: m.update({'../escape': b'x'}))
        problems = self.verify()
        self.assertIn('member ../escape: not a plain file with a plain '
                      'name; not unpacked', problems)
        self.assertFalse(os.path.exists(os.path.join(
            os.path.dirname(self.path), '..', 'escape')))

    def test_cli_round_trip(self):
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers(dest='command')
        bundle_cmd.add_parser(sub)
        output = os.path.join(self.root, 'out.tar.gz')
        args = parser.parse_args(['bundle', '--workdir', self.workdir,
                                  '--output', output])
        code, out, err = self.run_cmd(args.func, args,
                                      guideline_files=self.files)
        self.assertEqual((0, []), (code, err))
        self.assertTrue(out[-1].startswith('bundle: %s (10 members' % output),
                        out)
        with open(output + '.sha256') as f:
            digest = f.read().split()[0]
        self.assertTrue(out[-1].endswith('; sha256 %s, also in %s.sha256' % (
            digest, output)), out)
        args = parser.parse_args(['verify-bundle', output])
        code, out, err = self.run_cmd(args.func, args)
        self.assertEqual((0, []), (code, err))
        self.assertEqual(['%s verified: 9 members match MANIFEST.sha256; 3 '
                          'capability verdicts recomputed from its stream '
                          'and guidelines match report.json, and '
                          'report.html says what report.json says' % output],
                         out)

    def test_cli_tampered_is_exit_1_one_line_each(self):
        rewrite(self.path, lambda m: m.update({
            'results.subunit': _stream([(NAME_B, 'fail')])}))
        code, out, err = self.run_cmd(bundle_cmd.cmd_verify_bundle,
                                      argparse.Namespace(file=self.path))
        self.assertEqual(1, code)
        self.assertEqual(['capability t.passes: report says pass, the '
                          'stream gives fail'], out)
        self.assertEqual(1, len(err))

    def test_not_a_bundle_is_exit_2_one_line(self):
        text = os.path.join(self.root, 'not-a-bundle.tar.gz')
        _write(text, 'hello\n')
        empty = os.path.join(self.root, 'empty.tar.gz')
        with tarfile.open(empty, 'w:gz'):
            pass
        for path in (text, empty, os.path.join(self.root, 'absent')):
            code, out, err = self.run_cmd(bundle_cmd.cmd_verify_bundle,
                                          argparse.Namespace(file=path))
            self.assertEqual((2, []), (code, out), path)
            self.assertEqual(1, len(err), err)
            self.assertNotIn('\n', err[0])
            self.assertIn(path, err[0])

    def test_bundle_of_a_workdir_without_a_run_is_exit_2(self):
        for missing in ('report.json', 'report.html', 'results.subunit'):
            path = os.path.join(self.workdir, missing)
            os.rename(path, path + '.away')
            code, out, err = self.run_cmd(
                bundle_cmd.cmd_bundle, argparse.Namespace(
                    workdir=self.workdir, output=None),
                guideline_files=self.files)
            os.rename(path + '.away', path)
            self.assertEqual((2, []), (code, out))
            self.assertEqual(1, len(err), err)
            self.assertIn(missing, err[0])
            self.assertIn('run `conformance run` first', err[0])

    def test_bundle_that_does_not_verify_is_exit_1(self):
        # A report rebuilt from another stream: caught when bundling.
        _write(os.path.join(self.workdir, 'results.subunit'),
               _stream([(NAME_A, 'fail'), (NAME_B, 'fail')]))
        code, out, err = self.run_cmd(
            bundle_cmd.cmd_bundle, argparse.Namespace(
                workdir=self.workdir, output=None),
            guideline_files=self.files)
        self.assertEqual(1, code)
        self.assertEqual(['capability t.passes: report says pass, the '
                          'stream gives fail'], out)

    def test_newest_workspace_is_taken(self):
        vendor = os.path.join(self.workdir, 'vendor-workspace')
        _write(os.path.join(vendor, bundle.SELECTED), NAME_A + '\n')
        _write(os.path.join(vendor, 'etc', 'tempest.conf'),
               '[auth]\nadmin_password = vendorpw\n[identity]\nuri = v\n')
        os.utime(os.path.join(self.workdir, 'workspace', bundle.SELECTED),
                 (1, 1))
        members = bundle.collect(self.workdir, self.files)
        self.assertEqual(NAME_A + '\n', members['selected-tests.txt'].decode())
        self.assertIn(b'uri = v', members['tempest.conf'])
        self.assertNotIn(b'vendorpw', members['tempest.conf'])


class RedactTest(testtools.TestCase):

    def test_default_section_and_continuation_lines(self):
        text = ('[DEFAULT]\nsome_token = d3fault\n[s]\nA_Key = multi\n'
                '  line-s3cret\nname = keep\n')
        out = bundle.redact(text)
        for secret in ('d3fault', 'multi', 'line-s3cret'):
            self.assertNotIn(secret, out)
        self.assertIn('name = keep', out)
        self.assertEqual([], bundle.unredacted(out))

    def test_flags_and_settings_named_after_a_secret_stay(self):
        text = ('[compute-feature-enabled]\nchange_password = true\n'
                '[identity]\nuser_unique_last_password_count = 2\n'
                'use_system_token = False\n')

        def options(text):
            parser = bundle._ini(text)
            return {s: dict(parser[s]) for s in parser.sections()}
        self.assertEqual(options(text), options(bundle.redact(text)))
        self.assertEqual([], bundle.unredacted(text))

    def test_a_value_equal_to_a_secret_goes_however_short(self):
        out = bundle.redact('[auth]\nadmin_password = pw1\n'
                            '[other]\nlogin = pw1\nname = pw12\n')
        self.assertNotIn('= pw1\n', out)
        self.assertIn('login = <removed>', out)
        self.assertIn('name = pw12', out)  # short: not searched inside

    def test_a_secret_left_in_a_bundle_is_found(self):
        self.assertEqual(['[auth] admin_password', '[x] change_password'],
                         bundle.unredacted(
                             '[auth]\nadmin_password = 1234\n'
                             '[x]\nchange_password = hunter2\n'))
