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

"""A run's verdicts as JUnit XML (report.junit.xml), for the CI
dashboards that read that format (Jenkins, GitLab, Zuul's builds page
through a plugin).

One testcase per capability in scope, in a testsuite per seed; a
capability outside the run's scope claims nothing and is left out. The
file fails exactly where the report does, so a dashboard and
`conformance run`'s exit status never disagree:

- not as expected (a failure, an unexpected pass, a skip where none is
  allowed, an expected failure with another signature): ``<failure>``,
  its message the verdict and expectation, its text the evidence;
- expected-fail: ``<skipped type="expected-fail">`` with the upstream
  cause, as pytest writes an xfail: the cloud does not do what the spec
  says, so it is not shown as a pass;
- not-applicable, and partial where skips are allowed: ``<skipped>``
  with the reason;
- pass: a plain testcase.

The run's own conditions (tests no capability claims, what the run left
behind on the cloud) are testcases of a ``run`` suite, failing when the
report says so; without --inventory nothing was compared, and that case
is skipped, not passed.
"""

import re
import xml.etree.ElementTree as ElementTree

from conformance_tests.report import build

NAME = 'report.junit.xml'
#: The suite of the run's own conditions.
RUN_SUITE = 'run'
# XML 1.0 allows no control character but tab, newline and carriage
# return; a cloud's error text may hold one.
_NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def _text(value):
    return _NOT_XML.sub('?', str(value or ''))


def _seed_name(cap):
    return 'seed %s' % cap['seed'].split('_')[0]


def _evidence(cap):
    """The capability's rule, then each test that did not pass."""
    lines = ['rule: %s' % cap['rule']]
    if cap.get('explanation'):
        lines.append(cap['explanation'])
    for test in cap['tests']:
        lines.append('%s [%s]: %s%s' % (
            test.get('name') or test['id'], test['id'], test['status'],
            ' (%s)' % test['kind'] if test.get('kind') else ''))
        if test['status'] != 'pass' and test.get('reason'):
            lines.append(test['reason'])
    return '\n'.join(lines)


def _outcome(cap, summary):
    """(element name, type, message) of a capability, or None when it
    passed as expected."""
    status, expected = cap['status'], cap['expected']
    if cap['id'] in summary['unexpected']:
        return 'failure', status, '%s, expected %s: %s' % (
            status, build.expected_text(cap),
            cap.get('explanation') or cap['rule'])
    if status == 'pass':
        return None
    if status == 'expected-fail':
        return 'skipped', status, 'expected-fail /%s/: %s' % (
            cap['signature'], cap.get('expected_fail_reason') or '')
    return 'skipped', status, '%s: %s' % (
        status, cap.get('explanation') or 'expected %s' % expected)


def _testcase(parent, classname, name, outcome, text):
    case = ElementTree.SubElement(parent, 'testcase', classname=classname,
                                  name=name, time='0')
    if outcome:
        element, kind, message = outcome
        found = ElementTree.SubElement(case, element, type=_text(kind),
                                       message=_text(message))
        found.text = _text(text)
    out = ElementTree.SubElement(case, 'system-out')
    out.text = _text(text)
    return outcome[0] if outcome else 'pass'


def _run_cases(summary):
    """(name, outcome, text) of the run's own conditions."""
    unmapped = summary.get('tests_without_capability') or []
    return [
        ('every-test-has-a-capability',
         ('failure', 'unmapped', 'tests no capability claims: %s' %
          ', '.join(unmapped)) if unmapped else None,
         'every test the run ran belongs to a capability of guidelines/'),
        ('leaves-the-cloud-as-found', _left_behind(summary),
         'the cloud\'s inventory before and after the run (--inventory)'),
    ]


def _left_behind(summary):
    left = summary.get('inventory_differences')
    if left is None:
        # Not a pass: nothing was compared.
        return ('skipped', 'not-taken', 'no inventory was taken: run with '
                '--inventory to compare the cloud before and after')
    if left:
        return 'failure', 'left-behind', 'left behind: %s' % ', '.join(
            sorted(left))
    return None


def render(caps, summary):
    """The JUnit XML of a report, as text."""
    root = ElementTree.Element('testsuites', name='conformance')
    if summary.get('duration_s'):
        root.set('time', '%.1f' % summary['duration_s'])
    suites = {}
    counts = {}

    def count(suite_name, outcome):
        tally = counts.setdefault(suite_name, {'tests': 0, 'failure': 0,
                                               'skipped': 0, 'pass': 0})
        tally['tests'] += 1
        tally[outcome] += 1

    for cap in caps:
        if cap['status'] == build.NOT_IN_SCOPE:
            continue
        suite_name = _seed_name(cap)
        if suite_name not in suites:
            suites[suite_name] = ElementTree.SubElement(
                root, 'testsuite', name=suite_name)
        count(suite_name, _testcase(
            suites[suite_name], 'conformance.%s' % cap['id'].rsplit('.', 1)[0],
            cap['id'], _outcome(cap, summary), _evidence(cap)))
    run_suite = ElementTree.SubElement(root, 'testsuite', name=RUN_SUITE)
    for name, outcome, text in _run_cases(summary):
        count(RUN_SUITE, _testcase(run_suite, 'conformance.run', name,
                                   outcome, text))
    for suite in root:
        tally = counts[suite.get('name')]
        suite.set('tests', str(tally['tests']))
        suite.set('failures', str(tally['failure']))
        suite.set('skipped', str(tally['skipped']))
        suite.set('errors', '0')
    root.set('tests', str(sum(t['tests'] for t in counts.values())))
    root.set('failures', str(sum(t['failure'] for t in counts.values())))
    root.set('skipped', str(sum(t['skipped'] for t in counts.values())))
    root.set('errors', '0')
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding='unicode',
                                xml_declaration=True) + '\n'
