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

"""doc/mutants.md's tables of every spec reference and every mutant,
written from the registry (cloud/mutants.py) so they cannot drift from it.

    python -m conformance_tests.tools.doc_mutants          # rewrite them
    python -m conformance_tests.tools.doc_mutants --check  # pep8: current?

The tables sit between ``<!-- generated: NAME -->`` and ``<!-- end
generated -->`` lines; everything else in the page is prose kept by hand.
"""

import os
import re
import sys

from conformance_tests.cloud import mutants
from conformance_tests.report import guidelines

DOC = os.path.join('doc', 'mutants.md')
BLOCK = re.compile(r'(<!-- generated: (\w+) -->\n).*?(<!-- end generated '
                   r'-->)', re.DOTALL)


def _targets(ids, seed_of):
    """'002: s1-inherit, s1-mismatch': capability ids less their API and
    feature prefix, grouped by seed."""
    by_seed = {}
    for cap_id in ids:
        by_seed.setdefault(seed_of.get(cap_id, '?'), []).append(
            cap_id.rsplit('.', 1)[-1])
    return '; '.join('%s: %s' % (seed, ', '.join(names))
                     for seed, names in sorted(by_seed.items()))


def _cell(text):
    return ' '.join(text.split()).replace('|', '\\|')


def references_table(seed_of):
    rows = ['| reference | service | makes passable (expected-fail on '
            'upstream) | the spec rule it keeps |', '|---|---|---|---|']
    for ref in mutants.all_references():
        rows.append('| %s | %s | %s | %s |' % (
            ref.name, ref.service, _targets(ref.capabilities, seed_of),
            _cell(ref.rule)))
    return rows


def _kind(mutant):
    if mutant.wrong_reason:
        return 'wrong reason'
    if mutant.profile:
        return 'on %s' % mutant.profile
    return 'breaks'


def mutants_table(seed_of):
    rows = ['| mutant | service | kind | the rule it breaks (wrong reason: '
            'the other cause it brings) | targets |', '|---|---|---|---|---|']
    for mutant in mutants.all_mutants():
        rows.append('| %s | %s | %s | %s | %s |' % (
            mutant.name, mutant.service, _kind(mutant), _cell(mutant.rule),
            _targets(mutant.targets, seed_of)))
    return rows


def render(text):
    """``text`` with every generated block written anew."""
    seed_of = {c['id']: guidelines.seed_number(c)
               for c in guidelines.load_all()}
    tables = {'references': references_table(seed_of),
              'mutants': mutants_table(seed_of)}

    def block(match):
        name = match.group(2)
        if name not in tables:
            raise ValueError('%s: unknown generated block %r (known: %s)' % (
                DOC, name, ', '.join(sorted(tables))))
        return match.group(1) + '\n'.join(tables[name]) + '\n' + \
            match.group(3)
    return BLOCK.sub(block, text)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(DOC) as f:
        text = f.read()
    wanted = render(text)
    if '--check' in argv:
        if wanted != text:
            print('%s: the tables of references and mutants differ from '
                  'the registry; run python -m conformance_tests.tools.'
                  'doc_mutants to rewrite them' % DOC)
            return 1
        return 0
    with open(DOC, 'w') as f:
        f.write(wanted)
    return 0


if __name__ == '__main__':
    sys.exit(main())
