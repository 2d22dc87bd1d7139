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

"""Each mutant's wall time and the whole mutant run.

By default the bench runs `conformance mutants` itself (each mutant
against its targets' tests, on the bench's own port base), so that
`tox -e bench` needs nothing else; ``--mutants-json PATH`` reads a
mutants.json a run has just written instead (what `.ci/run` can pass to
avoid running every mutant twice).
"""

import json
import os

from conformance_tests.bench import children


class MutantsJsonError(Exception):
    """The given mutants.json cannot be read; the message says why."""


def run(workdir, port_base, parallel=None):
    mutants_dir = os.path.join(workdir, 'mutants')
    args = ['mutants', '--workdir', mutants_dir, '--port-base',
            str(port_base)]
    if parallel:
        args += ['--parallel', str(parallel)]
    log = os.path.join(workdir, 'mutants.log')
    code, wall = children.conformance(args, log)
    figures = read(os.path.join(mutants_dir, 'mutants.json'))
    figures.update({'source': 'run by the bench', 'exit_code': code,
                    'wall_s': round(wall, 1), 'log': log})
    return figures


def read(path):
    try:
        with open(path) as f:
            data = json.load(f)
        mutants = data['mutants']
        summary = data['summary']
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise MutantsJsonError('cannot read mutants results %s: %s' % (
            path, e))
    return {'source': os.path.abspath(path),
            'mutants': [{'name': m['name'], 'seconds': m['duration_s'],
                         'killed': m['killed'],
                         # absent from a mutants.json of before the split
                         'cloud_start_s': m.get('cloud_start_s'),
                         'tests_s': m.get('tests_s')} for m in mutants],
            'total_s': summary.get('duration_s'),
            'killed': summary.get('killed'),
            'survived': summary.get('survived')}
