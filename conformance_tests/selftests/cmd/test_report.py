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
        try:
            code = main.main(argv)
        except SystemExit as e:  # argparse's usage errors
            code = e.code
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


NO_BLAZAR = ('blazar is not available: set [service_available] blazar = '
             'true to run the seed-004 tests')
SKIPPED_CLASS = 'conformance_tests.scenario.test_p.PreemptibleTest'
OTHER_CLASS = 'conformance_tests.api.reservation.test_l.LeaseTest'


def seed_tests(seed):
    caps = guidelines.load_all()
    return guidelines.test_ids(caps, guidelines.select(caps, [seed], None))


def write_events(path, events):
    """A stream of (Tempest name, subunit status, reason or None)."""
    buf = io.BytesIO()
    out = subunit.v2.StreamResultToBytes(buf)
    for name, status, reason in events:
        out.status(test_id=name, test_status='inprogress')
        if reason:
            out.status(test_id=name, file_name='reason', eof=True,
                       file_bytes=reason.encode(),
                       mime_type='text/plain;charset=utf8')
        out.status(test_id=name, test_status=status)
    with open(path, 'wb') as f:
        f.write(buf.getvalue())
    return path


class PlainTempestStreamTest(testtools.TestCase):
    """A plain `tempest run`'s stream, no `conformance run` before it in
    the workdir: a class that skipped in skip_checks reported once; its
    tests are judged from Tempest's listing of the plugin."""

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.workdir = os.path.join(self.root, 'work')
        tests = seed_tests('004')
        # every seed-004 test but the last is in the class that skips
        self.listed = ['%s.test_%s[id-%s]' % (
            SKIPPED_CLASS if t != tests[-1] else OTHER_CLASS, t[:8], t)
            for t in tests]
        self.absent = tests[-1]
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.client_files.ensure_workspace',
            lambda workdir, workspace: os.makedirs(workspace,
                                                   exist_ok=True)))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests',
            lambda workspace: list(self.listed)))
        # judging a series needs none of its virtualenvs
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.releases.ensure_venv',
            lambda *a, **k: self.fail('report built a virtualenv')))

    def conf(self, extra=''):
        path = os.path.join(self.root, 'tempest.conf')
        with open(path, 'w') as f:
            f.write('[identity]\nuri_v3 = http://127.0.0.1:1/v3\n' + extra)
        return path

    def report(self, events, *extra):
        stream = write_events(os.path.join(self.root, 'r.subunit'), events)
        return run_main(['report', '--subunit', stream, '--workdir',
                         self.workdir] + list(extra))

    def caps(self):
        with open(os.path.join(self.workdir, 'report.json')) as f:
            return {c['id']: c for c in json.load(f)['capabilities']}

    def summary(self):
        with open(os.path.join(self.workdir, 'report.json')) as f:
            return json.load(f)['summary']

    def class_skip(self, owner=SKIPPED_CLASS):
        return ('setUpClass (%s)' % owner, 'skip', NO_BLAZAR)

    def test_a_class_skip_makes_its_tests_not_applicable(self):
        other = '%s.test_x[id-%s]' % (OTHER_CLASS, self.absent)
        code, out, err = self.report(
            [self.class_skip(), (other, 'skip', NO_BLAZAR)],
            '--tempest-conf', self.conf(), '--seed', '004')
        self.assertEqual(0, code, out + err)
        self.assertEqual({'not-applicable': 16, 'not-in-scope': len(
            self.caps()) - 16}, self.summary()['by_status'])
        self.assertEqual([], self.summary()['tests_without_capability'])
        self.assertIn('service not available: blazar',
                      self.caps()['reservation.api.lease-lifecycle'][
                          'explanation'])

    def test_a_test_absent_from_the_stream_still_did_not_run(self):
        code, out, err = self.report([self.class_skip()], '--tempest-conf',
                                     self.conf(), '--seed', '004')
        self.assertEqual(1, code, out + err)
        failed = [c for c in self.caps().values() if c['status'] == 'fail']
        self.assertEqual(1, len(failed), out)
        self.assertIn('test %s did not run' % self.absent,
                      failed[0]['explanation'])

    def test_a_class_skip_of_another_seed_is_no_unclaimed_test(self):
        # the stream ran seeds 003 and 004; the report judges 003
        passed = [('conformance_tests.api.p.T.test_%s[id-%s]' % (t[:8], t),
                   'success', None) for t in seed_tests('003')]
        code, out, err = self.report(
            passed + [self.class_skip()], '--tempest-conf', self.conf(),
            '--seed', '003')
        self.assertEqual(0, code, out + err)
        self.assertEqual([], self.summary()['tests_without_capability'])
        self.assertEqual(9, self.summary()['by_status']['pass'])

    def test_tempest_confs_require_turns_them_into_failures(self):
        code, out, err = self.report(
            [self.class_skip(),
             ('%s.t[id-%s]' % (OTHER_CLASS, self.absent), 'skip',
              NO_BLAZAR)],
            '--tempest-conf', self.conf('[conformance]\nrequire = '
                                        'reservation\n'),
            '--seed', '004')
        self.assertEqual(1, code, out + err)
        self.assertEqual(['blazar'], self.summary()['required'])
        self.assertEqual(16, self.summary()['by_status']['fail'])
        self.assertEqual('required, but service not available: blazar',
                         self.caps()['reservation.api.lease-lifecycle'][
                             'explanation'])

    def test_tempest_conf_names_the_target_and_allows_skips(self):
        conf = self.conf()
        self.report([self.class_skip()], '--tempest-conf', conf,
                    '--seed', '004')
        self.assertEqual('cloud of %s' % conf, self.summary()['target'])
        self.assertTrue(self.summary()['skips_allowed'])

    def test_a_file_that_is_no_tempest_conf_is_one_line(self):
        path = os.path.join(self.root, 'not.conf')
        with open(path, 'w') as f:
            f.write('[DEFAULT]\n')
        code, out, err = self.report([self.class_skip()],
                                     '--tempest-conf', path)
        self.assertEqual(2, code, out + err)
        self.assertEqual(1, len(err.strip().splitlines()), err)
        self.assertIn('has no [identity] or [auth] section', err)
        self.assertNotIn('Traceback', out + err)

    def cli_client_stream(self):
        (test_id,) = [c for c in guidelines.load_all()
                      if c['id'] == 'clustering.affinity.cli-client'][0][
                          'tests']
        return [('conformance_tests.api.c.T.t[id-%s]' % test_id, 'success',
                 None)]

    def test_release_judges_by_that_series_expectations(self):
        code, out, err = self.report(
            self.cli_client_stream(), '--tempest-conf', self.conf(),
            '--capability', 'clustering.affinity.cli-client',
            '--release', '2024.1')
        self.assertEqual(0, code, out + err)
        self.assertEqual('2024.1', self.summary()['release'])
        cap = self.caps()['clustering.affinity.cli-client']
        self.assertEqual(('pass', 'pass'), (cap['status'], cap['expected']))

    def test_without_release_todays_expectations_judge(self):
        code, out, err = self.report(
            self.cli_client_stream(), '--tempest-conf', self.conf(),
            '--capability', 'clustering.affinity.cli-client')
        self.assertEqual(1, code, out + err)
        self.assertEqual(releases.CURRENT, self.summary()['release'])
        self.assertEqual('unexpected-pass', self.caps()[
            'clustering.affinity.cli-client']['status'])

    def test_release_overrides_the_last_reports_series(self):
        self.report(self.cli_client_stream(), '--target', 'a cloud',
                    '--capability', 'clustering.affinity.cli-client')
        code, out, err = run_main([
            'report', '--subunit', os.path.join(self.root, 'r.subunit'),
            '--capability', 'clustering.affinity.cli-client',
            '--workdir', self.workdir, '--release', '2024.1'])
        self.assertEqual(0, code, out + err)
        self.assertEqual('a cloud', self.summary()['target'])
        self.assertEqual('2024.1', self.summary()['release'])

    def test_an_unknown_series_is_refused(self):
        code, out, err = self.report(self.cli_client_stream(), '--target',
                                     'x', '--release', '1999.1')
        self.assertEqual(2, code, out + err)
        self.assertIn("--release: invalid choice: '1999.1'", err)
