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

"""Whether each mutant's and spec reference's patch target exists in the
upstream code this virtualenv installed (an older series: cmd/mutants.py).

    python -m conformance_tests.cloud.mutant_probe SERVICE

applies every patch of SERVICE in this throwaway process and prints
``{name: null | "Error: message"}`` as JSON. A patch imports the module it
patches and replaces a function or method of it, so an ImportError or
AttributeError here is a target that series does not have: the mutant
cannot run there, and `conformance mutants --release` says so and skips
it. The patches stack (one process per service); a patch replaces what
it finds, so one never hides another's missing target.
"""

import json
import sys


def probe(service):
    from conformance_tests.cloud import mutants
    found = {}
    for patch in mutants.all_mutants() + mutants.all_references():
        if patch.service != service:
            continue
        try:
            patch.apply()
        except Exception as e:  # whatever the older code raises
            found[patch.name] = '%s: %s' % (
                type(e).__name__, (str(e).splitlines() or [''])[0][:200])
        else:
            found[patch.name] = None
    return found


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print('usage: python -m conformance_tests.cloud.mutant_probe '
              'SERVICE', file=sys.stderr)
        return 2
    print(json.dumps(probe(argv[0]), sort_keys=True))
    return 0


if __name__ == '__main__':
    sys.exit(main())
