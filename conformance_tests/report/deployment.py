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

"""A packaged deployment's verdicts beside the embedded cloud's.

A real deployment of a series (`conformance packaged`: Debian 13's
OpenStack 2025.1) must give the verdicts the embedded cloud of that
series gives. Where it cannot, the guideline says why, per deployment
(``by_deployment``, report/guidelines.py): seed 002 is not-applicable
on Debian 13, which packages no senlin. Any other difference is a
failure of the run, not a footnote.
"""

from conformance_tests.packaged import layout as packaged_layout
from conformance_tests.report import build

#: The one packaged deployment today (cmd/packaged.py builds it).
DEBIAN13 = packaged_layout.NAME
#: A Zuul job of zuul.d/ on a real DevStack (cmd/devstack.py).
DEVSTACK = 'devstack'
#: How the matrix heads its column.
LABELS = {DEBIAN13: 'Debian 13 packaged (%s)' % packaged_layout.RELEASE}


def devstack_label(job, branch):
    """A DevStack job's column header: the job and DevStack's branch."""
    return 'DevStack %s (%s)' % (branch, job)


def explanation(capability, deployment, status):
    """The guideline's reason why ``deployment`` shows ``status`` for
    ``capability`` (a guidelines.load_all entry), or None."""
    entry = (capability.get('by_deployment') or {}).get(deployment)
    if entry and entry['status'] == status:
        return entry['reason']
    return None


def unexplained_not_applicable(report, capabilities, deployment):
    """A line per capability the deployment's admin run found
    not-applicable without a guideline entry saying why: an admin run
    lacks no rights, so what is missing must be the deployment's, and
    named."""
    by_id = {c['id']: c for c in capabilities}
    lines = []
    for cap in report['capabilities']:
        if cap['status'] != 'not-applicable':
            continue
        if explanation(by_id.get(cap['id'], {}), deployment,
                       'not-applicable') is None:
            lines.append('%s is not-applicable on %s and no guideline '
                         'by_deployment entry says why: %s' % (
                             cap['id'], deployment, first_line(
                                 cap.get('explanation'))))
    return lines


def judge_cell(capability, deployment, cell, embedded):
    """``cell`` (a matrix cell of the deployment's column) beside the
    embedded series' cell: marked when it differs, and as expected only
    when the guideline explains the difference."""
    cell = dict(cell)
    if cell['status'] == build.NOT_IN_SCOPE:
        # Not run there (a job's seeds are a part of the suite): nothing
        # to compare, nothing claimed.
        cell.update(differs=False, as_expected=True,
                    note='not run by this deployment\'s job')
        return cell
    cell['differs'] = embedded is not None and (
        cell['status'] != embedded['status'])
    if cell['differs']:
        reason = explanation(capability, deployment, cell['status'])
        if reason:
            cell['note'] = 'differs from the embedded cloud: %s' % reason
        else:
            cell['as_expected'] = False
            cell['note'] = ('differs from the embedded cloud (%s) and no '
                            'guideline by_deployment entry says why: %s' % (
                                embedded['status'], cell.get('note', '')))
    return cell


def first_line(text):
    """A verdict's evidence as one line (the matrix's notes use it too)."""
    lines = (text or '').strip().splitlines()
    return lines[0] if lines else ''
