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

"""The capability catalogue of the reference docs, generated from
guidelines/ at every docs build (tools/docs_build.py), never written by
hand: one section per seed, one per capability, with its rule, its
tests, and what is expected of it per series and per deployment."""

import re

from conformance_tests.cloud import releases
from conformance_tests.report import guidelines
from conformance_tests.report import series_versions

UNDERLINES = {1: '=', 2: '-', 3: '~'}


def heading(text, level):
    text = escaped(text)
    return [text, UNDERLINES[level] * len(text), '']


def escaped(text):
    """Free text with rst's markup characters taken literally (a rule
    may hold '*', a backquote or a word ending in '_')."""
    text = ' '.join(text.split()).replace('\\', '\\\\')
    for char in '*`|':
        text = text.replace(char, '\\' + char)
    return re.sub(r'_(?=\W|$)', r'\\_', text)


def literal(text):
    """``text`` as an inline literal (its backquotes kept apart)."""
    return '``%s``' % text.replace('`', "'")


def paragraph(text):
    return [escaped(text), '']


def _field(name, text, markup=False):
    """A field; ``text`` is rst already when ``markup``."""
    return [':%s: %s' % (name, ' '.join(text.split()) if markup
                         else escaped(text))]


def capability_lines(cap):
    """The rst of one capability."""
    lines = heading(cap['id'], 3)
    lines += paragraph(cap['rule'])
    lines += _field('Tests', ', '.join(literal(t) for t in cap['tests']),
                    markup=True)
    if cap['disruptive']:
        lines += _field('Disruptive', 'yes: it runs only with '
                        '``[conformance] allow_disruption = true``',
                        markup=True)
    failing = cap['expected_fail']
    if failing:
        lines += _field('On upstream (%s)' % releases.CURRENT,
                        'expected-fail: ' + series_versions.fill(
                            failing['reason'], releases.CURRENT))
        lines += _field('Signature', literal(' '.join(
            failing['signature'].split())), markup=True)
    else:
        lines += _field('On upstream (%s)' % releases.CURRENT, 'pass')
    for series, expected in sorted(cap['by_release'].items()):
        lines += _field('On %s' % series, '%s: %s' % (
            expected['status'], series_versions.fill(expected['reason'],
                                                     series)))
    for profile, expected in sorted(cap['expect'].items()):
        lines += _field('Profile %s' % profile, '%s: %s' % (
            expected['status'], escaped(expected['reason']) or literal(
                expected['signature'])), markup=True)
    for deployment, expected in sorted(cap['by_deployment'].items()):
        lines += _field('On %s' % deployment, '%s: %s' % (
            expected['status'], expected['reason']))
    return lines + ['']


def render(capabilities):
    """The whole catalogue page, rst."""
    lines = heading('Capability catalogue', 1)
    lines += paragraph(
        'Every capability of guidelines/, as this build of the docs read '
        'it: the rule its tests prove, their idempotent ids, and what the '
        'report expects of it on upstream (today\'s series, %s), on older '
        'series, on other profiles of the embedded cloud and on other '
        'deployments. An expected-fail capability is judged expected-fail '
        'only when its test fails with the signature, a regular '
        'expression over the failure message; any other failure is a '
        'fail.' % releases.CURRENT)
    lines += paragraph('%d capabilities, %d of them expected to fail on '
                       'upstream.' % (len(capabilities), sum(
                           1 for c in capabilities if c['expected_fail'])))
    seeds = []
    for cap in capabilities:
        if (cap['seed'], cap['feature']) not in seeds:
            seeds.append((cap['seed'], cap['feature']))
    for seed, feature in seeds:
        ours = [c for c in capabilities if c['seed'] == seed]
        lines += heading('Seed %s: %s' % (seed.split('_')[0], feature), 2)
        count = '%d capabilities (seed file %s).' % (len(ours),
                                                     literal(seed))
        lines += [count, '']
        for cap in ours:
            lines += capability_lines(cap)
    return '\n'.join(lines).rstrip() + '\n'


def write(path, capabilities=None):
    """Write the page for ``capabilities`` (default: guidelines/)."""
    text = render(guidelines.load_all() if capabilities is None
                  else capabilities)
    with open(path, 'w') as f:
        f.write(text)
    return path
