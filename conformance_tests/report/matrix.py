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

"""The capability x release matrix that `conformance matrix` writes.

One row per capability, one column per series (oldest first), each cell
the series' verdict with what explains it: the signature an
expected-fail matched, the reason of a not-applicable, the first line of
a failure. A cell whose verdict differs from the newest series' is
marked (``differs``): that is where an older cloud behaves otherwise,
and the guideline's ``by_release`` must say which upstream change made
the difference. A series whose run gave no report (its virtualenv could
not be built, its cloud did not start) is a column of ``error`` cells
with that one line.

A deployment's column (``deployment_column``; `conformance matrix
--packaged` for Debian 13's, `--devstack` for a DevStack job's) comes
after the series and is compared with its own series' embedded column,
not the newest: a differing cell is as expected only where the
guideline's ``by_deployment`` says why (report/deployment.py).
"""

import html
import html.parser
import json
import os

from conformance_tests.report import build as report_build
from conformance_tests.report import deployment as deployments

ERROR = 'error'
MARK = '\u2020'  # dagger: differs from the newest series
FILES = ('matrix.json', 'matrix.md', 'matrix.html')


def cell(cap):
    """A report.json capability as a matrix cell."""
    status = cap['status']
    if status == 'expected-fail':
        note = 'signature /%s/' % cap['signature']
    elif status == 'pass':
        # a pass where upstream fails today: the guideline's reason
        reason = cap.get('expected_reason')
        note = 'expected here: %s' % reason if reason else ''
    else:
        note = deployments.first_line(cap.get('explanation'))
    return {'status': status, 'as_expected': bool(cap.get('as_expected')),
            'note': note}


def mutants_entry(run, seconds):
    """A series' mutant run (its mutants.json) as the matrix lists it."""
    skipped = {m['name']: m['skipped'] for m in run['mutants']
               if m.get('skipped')}
    summary = run['summary']
    return {'killed': summary['killed'], 'survived': summary['survived'],
            'skipped': skipped, 'seconds': round(seconds, 1)}


def mutants_line(entry):
    if entry.get('error'):
        return entry['error']
    return '%d killed, %d survived%s, %d skipped%s (%.0f s)' % (
        entry['killed'], len(entry['survived']),
        ' (%s)' % ', '.join(entry['survived']) if entry['survived'] else '',
        len(entry['skipped']), ': ' + '; '.join(
            '%s: %s' % kv for kv in sorted(entry['skipped'].items()))
        if entry['skipped'] else '', entry.get('seconds') or 0)


def column(series, report=None, error=None, build_seconds=None,
           run_seconds=None, mutants=None):
    """One series' column: from its report.json (a dict), or ``error``,
    the line that says why there is none; ``mutants``: mutants_entry()
    when the series' mutants ran."""
    col = {'series': series, 'build_seconds': build_seconds,
           'run_seconds': run_seconds, 'error': error, 'versions': {},
           'as_expected': False, 'by_status': {}, 'cells': {},
           'mutants': mutants}
    if report is not None:
        summary = report['summary']
        col.update(versions=summary.get('versions') or {},
                   as_expected=bool(summary.get('as_expected')),
                   by_status=summary.get('by_status') or {},
                   cells={c['id']: cell(c) for c in report['capabilities']})
    return col


def deployment_column(name, report, compare_with, versions=None,
                      label=None):
    """A deployment's column (a packaged cloud's admin run, a DevStack
    job's run: its report.json), judged against the embedded column of
    series ``compare_with``; ``versions``: its packages' (a vendor-style
    run's report has none); ``label``: its header, else LABELS'."""
    col = column(label or deployments.LABELS.get(name, name), report)
    col.update(deployment=name, compare_with=compare_with)
    if versions and not col['versions']:
        col['versions'] = versions
    return col


def build(capabilities, columns):
    """The matrix: ``capabilities`` (guidelines.load_all order, each with
    id and rule) by ``columns`` (column(), oldest series first, then any
    deployment_column())."""
    series_columns = [c for c in columns if not c.get('deployment')]
    if not series_columns:
        raise ValueError('a matrix needs at least one series')
    newest = series_columns[-1]
    by_series = {c['series']: c for c in series_columns}
    seed_of = {cap['id']: cap.get('seed') for cap in capabilities}
    rows = []
    for cap in capabilities:
        reference = newest['cells'].get(cap['id'])
        cells = []
        for col in columns:
            if col['error']:
                this = {'status': ERROR, 'as_expected': False,
                        'note': col['error']}
            elif (cap['id'] not in col['cells'] and col.get('deployment')
                  and not _ran_seed(col, cap.get('seed'), seed_of)):
                # A job's report from before this capability existed,
                # whose job runs none of its seed: it claims nothing.
                this = {'status': report_build.NOT_IN_SCOPE,
                        'as_expected': True, 'note': ''}
            else:
                this = dict(col['cells'].get(cap['id']) or {
                    'status': 'missing', 'as_expected': False,
                    'note': 'not in this series\' report'})
            if col.get('deployment') and not col['error']:
                embedded = by_series.get(col['compare_with'])
                this = deployments.judge_cell(
                    cap, col['deployment'], this, None
                    if embedded is None or embedded['error']
                    else embedded['cells'].get(cap['id']))
            else:
                this['differs'] = bool(
                    col is not newest and reference is not None
                    and not col['error'] and
                    this['status'] != reference['status'])
            cells.append(this)
        rows.append({'id': cap['id'], 'rule': cap['rule'], 'cells': cells})
    for i, col in enumerate(columns):
        if col.get('deployment'):
            col['as_expected'] = col['as_expected'] and all(
                row['cells'][i]['as_expected'] for row in rows)
    return {'newest': newest['series'],
            'columns': [{k: v for k, v in col.items() if k != 'cells'}
                        for col in columns],
            'rows': rows}


def _ran_seed(col, seed, seed_of):
    """Whether a column's report ran any capability of ``seed``."""
    return any(seed_of.get(cap_id) == seed
               and cell['status'] != report_build.NOT_IN_SCOPE
               for cap_id, cell in col['cells'].items())


def differing(matrix):
    """(capability id, series) of every marked cell."""
    series = [c['series'] for c in matrix['columns']]
    return [(row['id'], series[i]) for row in matrix['rows']
            for i, c in enumerate(row['cells']) if c['differs']]


def header(col):
    """A column's header line: the series and each service's version."""
    versions = ', '.join('%s %s' % kv for kv in sorted(
        col['versions'].items()))
    return '%s (%s)' % (col['series'], versions or 'no versions: no report')


def _cell_text(c):
    text = c['status'] + (' ' + MARK if c['differs'] else '')
    if not c['as_expected'] and c['status'] not in (ERROR, 'missing'):
        text += ' (NOT as expected)'
    return text


def markdown(matrix):
    cols = matrix['columns']
    lines = ['# Conformance by release', '',
             'Cells marked %s differ from the newest series, %s (a '
             'deployment\'s: from its series\' embedded cloud).'
             % (MARK, matrix['newest']), '', '## Series', '']
    for col in cols:
        timing = []
        if col['build_seconds'] is not None:
            timing.append('virtualenv ready in %.0f s' % col['build_seconds'])
        if col['run_seconds'] is not None:
            timing.append('run %.0f s' % col['run_seconds'])
        state = ('error: %s' % col['error'] if col['error'] else
                 'as expected' if col['as_expected'] else 'NOT as expected')
        lines.append('- **%s**: %s; %s' % (
            header(col), state, ', '.join(timing) or 'no timing'))
        if col.get('mutants'):
            lines.append('  - mutants: %s' % mutants_line(col['mutants']))
    lines += ['', '| capability | %s |' % ' | '.join(
        c['series'] for c in cols),
        '|---|%s' % ('---|' * len(cols))]
    for row in matrix['rows']:
        lines.append('| %s | %s |' % (row['id'], ' | '.join(
            _cell_text(c) for c in row['cells'])))
    notes = [(row['id'], col['series'], c) for row in matrix['rows']
             for col, c in zip(cols, row['cells'])
             if c['note'] and c['status'] != ERROR]
    if notes:
        lines += ['', '## What explains each cell', '']
        lines += ['- %s, %s: %s: %s' % (cap, series, c['status'], c['note'])
                  for cap, series, c in notes]
    return '\n'.join(lines) + '\n'


def to_html(matrix):
    """A self-contained page: the table has id ``matrix``, each column
    header a ``data-series``, each cell ``data-status`` and, when it
    differs from the newest series, class ``differs`` and the mark."""
    esc = html.escape
    cols = matrix['columns']
    head = ''.join('<th data-series="%s">%s</th>' % (
        esc(c['series']), esc(header(c))) for c in cols)
    body = []
    for row in matrix['rows']:
        tds = ''.join(
            '<td data-status="%s"%s title="%s">%s</td>' % (
                esc(c['status']), ' class="differs"' if c['differs'] else '',
                esc(c['note']), esc(_cell_text(c)))
            for c in row['cells'])
        body.append('<tr><th scope="row" title="%s">%s</th>%s</tr>' % (
            esc(row['rule']), esc(row['id']), tds))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<title>Conformance by release</title><style>'
        'table{border-collapse:collapse;font:13px sans-serif}'
        'th,td{border:1px solid #999;padding:3px 6px;text-align:left}'
        'td.differs{background:#ffe08a;font-weight:bold}'
        '</style></head><body><h1>Conformance by release</h1>'
        '<p>Cells marked %s differ from the newest series, %s (a '
        'deployment\'s: from its series\' embedded cloud).</p>'
        '<table id="matrix"><thead><tr><th>capability</th>%s</tr></thead>'
        '<tbody>%s</tbody></table>%s</body></html>\n' % (
            MARK, esc(matrix['newest']), head, ''.join(body), ''.join(
                '<p class="mutants" data-series="%s">%s mutants: %s</p>' % (
                    esc(c['series']), esc(c['series']),
                    esc(mutants_line(c['mutants'])))
                for c in cols if c.get('mutants'))))


class _TableReader(html.parser.HTMLParser):
    """to_html()'s table read back from a page (a browser's DOM)."""

    def __init__(self):
        super().__init__()
        self.headers, self.cells, self._td = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'th' and 'data-series' in attrs:
            self.headers.append(attrs['data-series'])
        elif tag == 'td':
            self._td = {'status': attrs.get('data-status'),
                        'differs': 'differs' in (attrs.get('class') or ''),
                        'text': ''}

    def handle_data(self, data):
        if self._td is not None:
            self._td['text'] += data

    def handle_endtag(self, tag):
        if tag == 'td' and self._td is not None:
            self.cells.append(self._td)
            self._td = None


def read_table(page):
    """(series headers, [{'status', 'differs', 'text'}] row by row)."""
    reader = _TableReader()
    reader.feed(page)
    return reader.headers, reader.cells


def expected_table(matrix):
    """What read_table() must find in the page of ``matrix``."""
    return ([c['series'] for c in matrix['columns']],
            [{'status': c['status'], 'differs': c['differs'],
              'text': _cell_text(c)}
             for row in matrix['rows'] for c in row['cells']])


def write(directory, matrix):
    """matrix.json, matrix.md and matrix.html in ``directory``."""
    os.makedirs(directory, exist_ok=True)
    texts = (json.dumps(matrix, indent=1, sort_keys=True) + '\n',
             markdown(matrix), to_html(matrix))
    paths = []
    for name, text in zip(FILES, texts):
        path = os.path.join(directory, name)
        with open(path, 'w') as f:
            f.write(text)
        paths.append(path)
    return paths
