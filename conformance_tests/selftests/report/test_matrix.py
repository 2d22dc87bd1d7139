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

"""report/matrix.py and cmd/matrix.py: the capability x release table,
its marks, its three files, and the command's handling of each series."""

import json
import os

import fixtures
import testtools

from conformance_tests.cmd import matrix as matrix_cmd
from conformance_tests.report import matrix

CAPS = [{'id': 'a.one', 'rule': 'rule one'},
        {'id': 'a.two', 'rule': 'rule two'}]


def _report(series, statuses, as_expected=True):
    caps = []
    for cap_id, status in statuses.items():
        caps.append({'id': cap_id, 'status': status, 'as_expected': True,
                     'signature': 'sig of %s' % cap_id,
                     'explanation': 'why %s\nmore' % cap_id})
    return {'capabilities': caps, 'summary': {
        'as_expected': as_expected, 'by_status': {'pass': 1},
        'versions': {'nova': '29.4.0' if series == '2024.1' else '34.0.0'},
        'release': series}}


class MatrixTest(testtools.TestCase):

    def table(self):
        return matrix.build(CAPS, [
            matrix.column('2024.1', _report('2024.1', {
                'a.one': 'pass', 'a.two': 'pass'}), build_seconds=126,
                run_seconds=170),
            matrix.column('2026.2', _report('2026.2', {
                'a.one': 'pass', 'a.two': 'expected-fail'}),
                build_seconds=0, run_seconds=200)])

    def test_a_cell_that_differs_from_the_newest_series_is_marked(self):
        table = self.table()
        self.assertEqual([('a.two', '2024.1')], matrix.differing(table))
        newest = [row['cells'][-1]['differs'] for row in table['rows']]
        self.assertEqual([False, False], newest)

    def test_cells_say_what_explains_them(self):
        row = self.table()['rows'][1]
        self.assertEqual('', row['cells'][0]['note'])
        self.assertEqual('signature /sig of a.two/', row['cells'][1]['note'])
        failed = matrix.cell({'status': 'fail', 'as_expected': False,
                              'explanation': 'first\nsecond'})
        self.assertEqual('first', failed['note'])
        older = matrix.cell({'status': 'pass', 'as_expected': True,
                             'expected_reason': 'osc-lib 4 refuses it'})
        self.assertEqual('expected here: osc-lib 4 refuses it',
                         older['note'])

    def test_a_series_without_a_report_is_a_column_of_errors(self):
        table = matrix.build(CAPS, [
            matrix.column('2024.1', error='pip could not install nova'),
            matrix.column('2026.2', _report('2026.2', {
                'a.one': 'pass', 'a.two': 'pass'}))])
        self.assertEqual(
            [('error', 'pip could not install nova', False)] * 2,
            [(r['cells'][0]['status'], r['cells'][0]['note'],
              r['cells'][0]['differs']) for r in table['rows']])
        self.assertRaises(ValueError, matrix.build, CAPS, [])

    def test_three_files_whose_html_table_reads_back(self):
        directory = self.useFixture(fixtures.TempDir()).path
        paths = matrix.write(directory, self.table())
        self.assertEqual([os.path.join(directory, n) for n in matrix.FILES],
                         paths)
        with open(paths[0]) as f:
            self.assertEqual(self.table(), json.load(f))
        with open(paths[1]) as f:
            text = f.read()
        self.assertIn('| a.two | pass %s | expected-fail |' % matrix.MARK,
                      text)
        self.assertIn('2024.1 (nova 29.4.0)', text)
        with open(paths[2]) as f:
            headers, cells = matrix.read_table(f.read())
        self.assertEqual(['2024.1', '2026.2'], headers)
        self.assertEqual([
            ('pass', False, 'pass'), ('pass', False, 'pass'),
            ('pass', True, 'pass %s' % matrix.MARK),
            ('expected-fail', False, 'expected-fail')],
            [(c['status'], c['differs'], c['text']) for c in cells])
        self.assertEqual((headers, cells),
                         matrix.expected_table(self.table()))


class MutantsPerSeriesTest(testtools.TestCase):

    def test_a_series_lists_its_killed_survivors_and_skipped(self):
        run = {'mutants': [
            {'name': 'k', 'killed': True},
            {'name': 'gone', 'killed': False,
             'skipped': 'its patch target is not in 2024.1 (AttributeError)'}],
            'summary': {'killed': 1, 'survived': [], 'skipped': ['gone']}}
        entry = matrix.mutants_entry(run, 12.3)
        self.assertEqual('1 killed, 0 survived, 1 skipped: gone: its patch '
                         'target is not in 2024.1 (AttributeError) (12 s)',
                         matrix.mutants_line(entry))
        col = matrix.column('2024.1', _report('2024.1', {'a.one': 'pass'}),
                            mutants=entry)
        text = matrix.markdown(matrix.build(CAPS[:1], [col]))
        self.assertIn('  - mutants: 1 killed, 0 survived, 1 skipped', text)
        self.assertIn('class="mutants"', matrix.to_html(
            matrix.build(CAPS[:1], [col])))


class MatrixCommandTest(testtools.TestCase):

    def test_series_run_oldest_first_each_once(self):
        self.assertEqual(['2024.1', '2026.2'], matrix_cmd.ordered(
            ['2026.2', '2024.1', '2026.2']))

    def test_each_series_runs_in_its_own_workdir(self):
        argv = matrix_cmd.run_argv('2024.1', '/w/matrix/2024.1', 27000,
                                   ['004'])
        self.assertEqual(['run', '--release', '2024.1', '--workdir',
                          '/w/matrix/2024.1', '--port-base', '27000',
                          '--seed', '004'], argv[3:])

    def test_a_run_without_a_report_is_an_error_not_an_old_report(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        stale = os.path.join(workdir, 'report.json')
        with open(stale, 'w') as f:
            json.dump(_report('2024.1', {'a.one': 'pass'}), f)
        self.useFixture(fixtures.MockPatch(
            'subprocess.call', return_value=2))
        report, seconds, error = matrix_cmd._run('2024.1', workdir, 1, ())
        self.assertIsNone(report)
        self.assertIn('exit 2 and no report', error)
        self.assertFalse(os.path.exists(stale))


class BrowserCheckTest(testtools.TestCase):
    """tools/matrix_browser.py against a stand-in browser that renders
    a given page: the check finds a table that differs from matrix.json."""

    def browser(self, directory, page):
        path = os.path.join(directory, 'fake-chromium')
        with open(path, 'w') as f:
            f.write('#!/bin/sh\ncat %s\n' % page)
        os.chmod(path, 0o700)
        return path

    def test_rendered_table_matches_or_differs(self):
        from conformance_tests.tools import matrix_browser
        directory = self.useFixture(fixtures.TempDir()).path
        table = MatrixTest('run').table()
        paths = matrix.write(directory, table)
        self.assertEqual(([], 4, 1, ['2024.1', '2026.2']),
                         matrix_browser.check(
                             directory, self.browser(directory, paths[2])))
        wrong = os.path.join(directory, 'wrong.html')
        table['rows'][1]['cells'][0]['differs'] = False
        with open(wrong, 'w') as f:
            f.write(matrix.to_html(table))
        problems = matrix_browser.check(
            directory, self.browser(directory, wrong))[0]
        self.assertEqual(1, len(problems))
        self.assertIn('cell 2: rendered', problems[0])


class PackagedOptionTest(testtools.TestCase):

    def test_needs_the_embedded_series_and_a_finished_run(self):
        from conformance_tests.cmd.errors import CommandError
        d = self.useFixture(fixtures.TempDir()).path
        e = self.assertRaises(CommandError,
                              matrix_cmd.packaged_report, d, ['2026.2'])
        self.assertIn('add --release 2025.1', str(e))
        e = self.assertRaises(CommandError,
                              matrix_cmd.packaged_report, d, ['2025.1'])
        self.assertIn('run `conformance packaged run --workdir', str(e))
        os.makedirs(os.path.join(d, 'packaged', 'admin'))
        with open(os.path.join(d, 'packaged', 'admin', 'report.json'),
                  'w') as f:
            json.dump({'capabilities': []}, f)
        self.assertEqual({'capabilities': []},
                         matrix_cmd.packaged_report(d, ['2025.1']))

    def test_devstack_column_needs_a_finished_job_of_a_series_run(self):
        from conformance_tests.cmd.errors import CommandError
        d = self.useFixture(fixtures.TempDir()).path
        e = self.assertRaises(CommandError, matrix_cmd.devstack_column, d,
                              ['2026.1'])
        self.assertIn('run `conformance devstack run --job JOB', str(e))
        os.makedirs(os.path.join(d, 'logs', 'conformance'))
        with open(os.path.join(d, 'logs', 'job.json'), 'w') as f:
            json.dump({'job': 'conformance-placement',
                       'branch': 'stable/2026.1', 'series': '2026.1',
                       'versions': {'tempest': '46.2.0'}}, f)
        with open(os.path.join(d, 'logs', 'conformance', 'report.json'),
                  'w') as f:
            json.dump({'capabilities': [], 'summary': {}}, f)
        e = self.assertRaises(CommandError, matrix_cmd.devstack_column, d,
                              ['2026.2'])
        self.assertIn('ran on stable/2026.1: add --release 2026.1', str(e))
        col = matrix_cmd.devstack_column(d, ['2026.1', '2026.2'])
        self.assertEqual(('DevStack stable/2026.1 (conformance-placement)',
                          '2026.1', {'tempest': '46.2.0'}),
                         (col['series'], col['compare_with'],
                          col['versions']))
