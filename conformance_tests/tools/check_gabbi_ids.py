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

"""pep8 check: gabbi ids are valid and unique, and guidelines match tests.

check-uuid reads Python only; this covers the ids in YAML `meta:` blocks
and the mapping in guidelines/ both ways: every capability names existing
tests, every test belongs to a capability. Every gabbi file is loaded
first, so each file the loader refuses (a request that cannot fail, an
undefined $RUN name, bad meta) is reported, one line per file.
"""

import sys

from conformance_tests.common import gabbi_files
from conformance_tests.report import guidelines
from conformance_tests.tools import ids


def file_problems():
    """One line per gabbi file that the loader refuses."""
    found = []
    for service in gabbi_files.services():
        for path in gabbi_files.test_files(service):
            try:
                gabbi_files.load(path)
            except (gabbi_files.GabbiFileError, OSError, ValueError) as e:
                found.append(str(e))
    return found


def problems():
    found = file_problems()
    if found:
        return found
    yaml_ids = ids.yaml_ids()
    py_ids = ids.python_ids()
    for test_id, places in list(yaml_ids.items()) + list(py_ids.items()):
        if len(places) > 1:
            found.append('id %s is used %d times: %s' % (
                test_id, len(places), ', '.join(places)))
    for test_id in set(yaml_ids) & set(py_ids):
        found.append('id %s is used by YAML %s and Python %s' % (
            test_id, yaml_ids[test_id], py_ids[test_id]))
    all_ids = set(yaml_ids) | set(py_ids)
    try:
        caps = guidelines.load_all()
    except guidelines.GuidelineError as e:
        return found + [str(e)]
    claimed = set()
    for cap in caps:
        for test_id in cap['tests']:
            claimed.add(test_id)
            if test_id not in all_ids:
                found.append('capability %s names test %s, which does not '
                             'exist' % (cap['id'], test_id))
    for test_id in sorted(all_ids - claimed):
        where = (yaml_ids.get(test_id) or py_ids.get(test_id))[0]
        found.append('test %s (%s) belongs to no capability in guidelines/'
                     % (test_id, where))
    return found


def main():
    found = problems()
    for line in found:
        print('check_gabbi_ids: %s' % line)
    if not found:
        print('check_gabbi_ids: %d YAML and %d Python test ids, all unique '
              'and mapped to capabilities' % (
                  len(ids.yaml_ids()), len(ids.python_ids())))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
