"""`conformance report`, through the real parser and command: it rebuilds
report.json and report.md from a Tempest run's subunit stream, judges as
`--require` says (its own option: the command once read run's and
crashed), and names the series that judged it."""

import contextlib
import io
import json
import os

import fixtures
import subunit
import testtools

from conformance_tests.cloud import releases
from conformance_tests.cmd import main
from conformance_tests.report import guidelines

ADMIN_SKIP = 'Missing Identity Admin API credentials in configuration.'


def write_stream(path, seed='003', skip_reason=None):
    """A Tempest-like stream of every test of ``seed``: each passed, or
    skipped with ``skip_reason``. Returns ``path``."""
    caps = guidelines.load_all()
    buf = io.BytesIO()
    out = subunit.v2.StreamResultToBytes(buf)
    for test_id in guidelines.test_ids(caps, guidelines.select(
            caps, [seed], None)):
        name = 'conformance_tests.api.x.Test.test_%s[id-%s]' % (
            test_id[:8], test_id)
        out.status(test_id=name, test_status='inprogress')
        if skip_reason:
            out.status(test_id=name, file_name='reason', eof=True,
                       file_bytes=skip_reason.encode(),
                       mime_type='text/plain;charset=utf8')
        out.status(test_id=name,
                   test_status='skip' if skip_reason else 'success')
    with open(path, 'wb') as f:
        f.write(buf.getvalue())
    return path


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main.main(argv)
    return code, out.getvalue(), err.getvalue()


class ReportCommandTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.workdir = os.path.join(self.root, 'work')

    def report(self, *extra, skip_reason=None):
        stream = write_stream(os.path.join(self.root, 'r.subunit'),
                              skip_reason=skip_reason)
        return run_main(['report', '--subunit', stream, '--target',
                         'a cloud', '--seed', '003',
                         '--workdir', self.workdir] + list(extra))

    def summary(self):
        with open(os.path.join(self.workdir, 'report.json')) as f:
            return json.load(f)['summary']

    def test_writes_both_reports_naming_target_and_series(self):
        code, out, err = self.report()
        self.assertEqual(0, code, out + err)
        self.assertEqual('a cloud', self.summary()['target'])
        self.assertEqual(releases.CURRENT, self.summary()['release'])
        with open(os.path.join(self.workdir, 'report.md')) as f:
            text = f.read()
        self.assertIn('Target: a cloud\n', text)
        self.assertIn('\nRelease: %s (today\'s series)\n' % releases.CURRENT,
                      text)
        self.assertIn('release %s (today\'s series): ' % releases.CURRENT,
                      out)

    def test_not_applicable_without_require(self):
        code, out, err = self.report(skip_reason=ADMIN_SKIP)
        self.assertEqual(0, code, out + err)
        self.assertEqual(9, self.summary()['by_status']['not-applicable'])

    def test_require_turns_not_applicable_into_failures(self):
        code, out, err = self.report('--require', 'admin',
                                     skip_reason=ADMIN_SKIP)
        self.assertEqual(1, code, out + err)
        self.assertEqual(['admin'], self.summary()['required'])
        self.assertEqual(9, self.summary()['by_status']['fail'])

    def test_without_target_the_last_reports_requirements_stay(self):
        self.report('--require', 'admin', skip_reason=ADMIN_SKIP)
        code, out, err = run_main([
            'report', '--subunit', os.path.join(self.root, 'r.subunit'),
            '--seed', '003', '--workdir', self.workdir])
        self.assertEqual(1, code, out + err)
        self.assertEqual('a cloud', self.summary()['target'])
        self.assertEqual(['admin'], self.summary()['required'])

    def test_without_target_the_last_reports_series_judges(self):
        self.report()
        path = os.path.join(self.workdir, 'report.json')
        with open(path) as f:
            last = json.load(f)
        last['summary']['release'] = '2024.1'
        with open(path, 'w') as f:
            json.dump(last, f)
        code, out, err = run_main([
            'report', '--subunit', os.path.join(self.root, 'r.subunit'),
            '--seed', '003', '--workdir', self.workdir])
        self.assertEqual(0, code, out + err)
        self.assertEqual('2024.1', self.summary()['release'])
        with open(os.path.join(self.workdir, 'report.md')) as f:
            self.assertIn('\nRelease: 2024.1\n', f.read())
