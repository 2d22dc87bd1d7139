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

"""Write runner/reference_seconds.json from a clean run's subunit stream:
each test's seconds by idempotent id, which worker_plan deals Tempest's
workers by in a workspace that has recorded none yet.

    python -m conformance_tests.tools.reference_seconds \\
        .conformance/results.subunit

Run it after a clean run of every seed (`conformance run`) when tests
were added or their cost changed much; a test it lacks is dealt by its
estimate (SLOW_SECONDS or one second).
"""

import argparse
import json
import os
import sys

from conformance_tests.bench import subunit_times
from conformance_tests.runner import worker_plan


def seconds_by_id(times):
    """{idempotent id: seconds} of the tests that ran (skips weigh
    nothing in a run, so they are left out)."""
    return {t['id']: round(t['seconds'], 1) for t in times.values()
            if t['id'] and t['status'] in ('success', 'fail')}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('subunit', help='results.subunit of a clean run')
    parser.add_argument('--output', default=worker_plan.REFERENCE_SECONDS)
    args = parser.parse_args(argv)
    if not os.path.isfile(args.subunit):
        sys.stderr.write('%s: no such file; give the results.subunit of a '
                         'clean run\n' % args.subunit)
        return 2
    found = seconds_by_id(subunit_times.read_file(args.subunit))
    if not found:
        sys.stderr.write('%s: no test ran in it\n' % args.subunit)
        return 2
    with open(args.output, 'w') as f:
        json.dump({'source': 'a clean run of every seed on the embedded '
                             'cloud (conformance run), 2 workers',
                   'seconds': dict(sorted(found.items()))}, f, indent=1)
        f.write('\n')
    print('%s: %d tests, %.1f s in all' % (
        args.output, len(found), sum(found.values())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
