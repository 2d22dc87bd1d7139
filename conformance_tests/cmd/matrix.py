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

"""`conformance matrix`: the suite on each series, one capability x release
table (report/matrix.py).

Each series runs in turn, as `conformance run --release SERIES` in a
process of its own (an older series in its virtualenv, built on first use:
cloud/releases.py), with its own workdir under ``<workdir>/matrix/`` so
that each column keeps its report. Series run one after another, never
side by side: two clouds on 2 cores would time each other out.
"""

import json
import os
import subprocess
import sys
import time

from conformance_tests.cloud import releases
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui
from conformance_tests.packaged import layout as packaged_layout
from conformance_tests.report import deployment
from conformance_tests.report import guidelines
from conformance_tests.report import matrix as matrix_report

#: `tox -e matrix`'s series: every series from 2024.1 (the oldest whose
#: constraints still build) to today's.
DEFAULT_SERIES = releases.SERIES
MATRIX_DIR = 'matrix'


def add_parser(sub):
    parser = sub.add_parser('matrix', help=(
        'run the suite on each OpenStack series and write the capability '
        'x release table'))
    options.workdir(parser)
    # dest series: `--release` of run and cloud up (one series) makes
    # main.py re-run the command in that series' virtualenv; not this one.
    parser.add_argument('--release', action='append', metavar='SERIES',
                        dest='series', choices=releases.SERIES, help=(
                            'a series to run (repeatable; default: %s)' %
                            ', '.join(DEFAULT_SERIES)))
    options.port_base(parser, what='each series\' cloud uses')
    parser.add_argument('--seed', action='append', metavar='NNN',
                        help='only this seed\'s capabilities (repeatable)')
    parser.add_argument('--mutants', action='store_true', help=(
        'also run the mutants on each series (conformance mutants '
        '--release; a mutant whose patch target a series lacks is '
        'skipped and listed): about 15 minutes a series here'))
    parser.add_argument('--packaged', metavar='WORKDIR', help=(
        'add the column of a finished `conformance packaged run --workdir '
        'WORKDIR` (its admin run), judged cell by cell against the '
        'embedded %s column, which the matrix must then run' %
        packaged_layout.RELEASE))
    parser.add_argument(
        '--devstack', metavar='WORKDIR', action='append', default=[],
        help='add the column of a finished `conformance devstack run '
             '--workdir WORKDIR` (repeatable, a job each), judged cell by '
             'cell against the embedded column of its branch\'s series, '
             'which the matrix must then run')
    parser.set_defaults(func=cmd_matrix)


class Matrix(base.Command):
    name = 'matrix'


def packaged_report(workdir, series_list):
    """The admin report.json of a finished packaged run in ``workdir``
    (a dict); a one-line CommandError saying what to fix otherwise."""
    if packaged_layout.RELEASE not in series_list:
        raise CommandError(
            '--packaged compares with the embedded %s cloud: add '
            '--release %s' % ((packaged_layout.RELEASE,) * 2))
    path = os.path.join(workdir, 'packaged', 'admin', 'report.json')
    if not os.path.exists(path):
        raise CommandError(
            '--packaged %s: no %s; run `conformance packaged run '
            '--workdir %s` first' % (workdir, path, workdir))
    with open(path) as f:
        return json.load(f)


def devstack_column(workdir, series_list):
    """The column of a finished DevStack job's run in ``workdir``; a
    one-line CommandError saying what to fix otherwise."""
    from conformance_tests.devstack import deploy
    record = deploy.read_job_record(workdir)
    path = os.path.join(workdir, 'logs', 'conformance', 'report.json')
    if record is None or not os.path.exists(path):
        raise CommandError(
            '--devstack %s: no finished job there (no %s); run `conformance '
            'devstack run --job JOB --workdir %s` first' % (
                workdir, path, workdir))
    if record['series'] not in series_list:
        raise CommandError(
            '--devstack %s ran on %s: add --release %s' % (
                workdir, record['branch'], record['series']))
    with open(path) as f:
        report = json.load(f)
    return matrix_report.deployment_column(
        deployment.DEVSTACK, report, record['series'],
        versions=record.get('versions'),
        label=deployment.devstack_label(record['job'], record['branch']))


def ordered(series):
    """The series asked for, each once, oldest first."""
    return [s for s in releases.SERIES if s in set(series)]


def run_argv(series, workdir, port_base, seeds=(), command='run'):
    argv = [sys.executable, '-m', 'conformance_tests.cmd.main', command,
            '--release', series, '--workdir', workdir,
            '--port-base', str(port_base)]
    for seed in seeds or ():
        argv += ['--seed', seed]
    return argv


def _prepare(series):
    """(seconds, error line or None): the series' virtualenv, built first
    when needed (today's series runs in this one)."""
    started = time.monotonic()
    if series == releases.CURRENT:
        return 0.0, None
    try:
        releases.ensure_venv(series, ui.say)
    except releases.ReleaseError as e:
        return time.monotonic() - started, str(e)
    return time.monotonic() - started, None


def _run(series, workdir, port_base, seeds):
    """(report dict or None, seconds, error line or None)."""
    report_path = os.path.join(workdir, 'report.json')
    if os.path.exists(report_path):
        os.remove(report_path)  # a report of an earlier matrix is no column
    started = time.monotonic()
    code = subprocess.call(run_argv(series, workdir, port_base, seeds))
    seconds = time.monotonic() - started
    if code not in (0, 1) or not os.path.exists(report_path):
        return None, seconds, (
            '`conformance run --release %s` ended with exit %d and no '
            'report (its output above says why)' % (series, code))
    with open(report_path) as f:
        return json.load(f), seconds, None


def _mutants(series, workdir, port_base, seeds):
    """The series' mutant run, as the matrix lists it."""
    path = os.path.join(workdir, 'mutants.json')
    if os.path.exists(path):
        os.remove(path)
    started = time.monotonic()
    code = subprocess.call(run_argv(series, workdir, port_base, seeds,
                                    command='mutants'))
    if not os.path.exists(path):
        return {'error': '`conformance mutants --release %s` ended with '
                         'exit %d and no mutants.json' % (series, code)}
    with open(path) as f:
        run = json.load(f)
    return matrix_report.mutants_entry(run, time.monotonic() - started)


def cmd_matrix(args):
    series_list = ordered(args.series or DEFAULT_SERIES)
    directory = os.path.abspath(os.path.join(args.workdir, MATRIX_DIR))
    packaged = args.packaged and packaged_report(args.packaged, series_list)
    devstack = [devstack_column(w, series_list) for w in args.devstack]
    columns = []
    for k, series in enumerate(series_list, 1):
        ui.say('release %d of %d: %s' % (k, len(series_list), series))
        build_seconds, error = _prepare(series)
        report = run_seconds = mutant_run = None
        workdir = os.path.join(directory, series)
        if not error:
            report, run_seconds, error = _run(
                series, workdir, args.port_base, args.seed)
        if not error and args.mutants:
            mutant_run = _mutants(series, workdir, args.port_base, args.seed)
        columns.append(matrix_report.column(
            series, report, error=error, build_seconds=build_seconds,
            run_seconds=run_seconds, mutants=mutant_run))
    if packaged:
        from conformance_tests.packaged import chroot
        columns.append(matrix_report.deployment_column(
            deployment.DEBIAN13, packaged, packaged_layout.RELEASE,
            versions=chroot.package_versions()))
    columns += devstack
    table = matrix_report.build(guidelines.load_all(), columns)
    paths = matrix_report.write(directory, table)
    for col in table['columns']:
        ui.say('%s: %s' % (col['series'], col['error'] or '%s, %s' % (
            'as expected' if col['as_expected'] else 'NOT as expected',
            ', '.join('%d %s' % (n, s) for s, n in sorted(
                col['by_status'].items())))))
    marked = matrix_report.differing(table)
    ui.say('%d cell(s) differ from %s%s%s' % (
        len(marked), table['newest'], ' (a deployment\'s column: from '
        'the embedded column of its series)' if packaged or devstack else '',
        ': ' + ', '.join(
            '%s on %s' % m for m in marked) if marked else ''))
    ui.say('matrix: %s' % ', '.join(paths))
    for col in table['columns']:
        if col.get('mutants'):
            ui.say('%s mutants: %s' % (
                col['series'], matrix_report.mutants_line(col['mutants'])))
    if any(c['error'] for c in columns):
        return 2
    if any(not c['as_expected'] or (c.get('mutants') or {}).get('error')
           or (c.get('mutants') or {}).get('survived') for c in columns):
        return 1
    return 0
