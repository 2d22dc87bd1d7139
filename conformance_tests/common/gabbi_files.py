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

"""Find gabbi YAML files and read their `meta:` block.

Every test file carries a top-level `meta:` block (gabbi ignores unknown
top-level keys):

    meta:
      id: <uuid>                 stable idempotent id of the Tempest test
      rule: <one line>           the spec rule the file proves
      min_microversion: "1.32"   lowest microversion the file sends
      max_microversion: "1.33"   highest (defaults to min_microversion)
      topology: <name>           optional, from _topologies.yaml

Files whose name starts with '_' are data, not tests.

A file names what each run makes with ``$RUN['NAME']``: ``$RUN['PREFIX']``
(the prefix of everything the file creates, which the runner's cleanup
looks for), ``$RUN['CALLER_PROJECT_ID']`` and ``$RUN['CALLER_USER_ID']``
(whose token the requests carry, as keystone gave it) and the identities
of its topology (see _topologies.yaml). The
runner writes the values into the requests before gabbi reads them, so
they never pass through the process environment (gabbi's ``$ENVIRON``),
which every test of a worker shares; ``$ENVIRON`` is refused.

Every request must be able to fail for the reason the file is about;
``load`` refuses, naming the file and the request, what cannot:

- ``xfail`` (a request marked xfail never fails its file) and ``skip``
  (skips are the Tempest test's, from config, with a message);
- a provider-set key (``response_candidate_providers``,
  ``response_allocation_requests``, ``response_listed_providers``) with an
  empty list, which asserts nothing: write the expected providers, or the
  word ``none`` to assert that the answer holds none of the topology's;
- a request that asserts nothing beyond its status (no ``response_*``
  key), unless its ``desc:`` says why the status alone is enough:
  ``spec NNN: <the spec's words that fix this status>``, or, for a DELETE
  only, ``step: <why>`` when the very next request checks the same URL
  beyond its status (the pair proves the deletion).
"""

import os
import re
import uuid

import yaml

from conformance_tests.common import gabbi_handlers
from conformance_tests.common import paths
from conformance_tests.common import topology

REQUIRED_META = ('id', 'rule', 'min_microversion')
# Keys that make a request unable to fail its file.
NEVER_FAILING_KEYS = {
    'xfail': 'a request marked xfail can never fail its file',
    'skip': 'a skipped request can never fail its file (skip the whole '
            'test from config instead)',
}
RUN_VALUE = re.compile(r"""\$RUN\[(['"])(?P<name>.+?)\1\]""")
PREFIX = 'PREFIX'
CALLER = ('CALLER_PROJECT_ID', 'CALLER_USER_ID')
SPEC_DESC = re.compile(r'^spec \d{3}: \S')
STEP_DESC = re.compile(r'^step: \S')


class GabbiFileError(ValueError):
    pass


def gabbi_dir(service):
    return os.path.join(paths.data_path('gabbits'), service)


def services():
    """The service folders under gabbits/."""
    root = paths.data_path('gabbits')
    return sorted(d for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d)))


def test_files(service):
    directory = gabbi_dir(service)
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if f.endswith('.yaml') and not f.startswith('_'))


def load(path):
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict) or 'tests' not in data:
        raise GabbiFileError('%s: not a gabbi file (no tests:)' % path)
    meta = data.get('meta')
    if not isinstance(meta, dict):
        raise GabbiFileError('%s: no top-level meta: block' % path)
    missing = [k for k in REQUIRED_META if not meta.get(k)]
    if missing:
        raise GabbiFileError('%s: meta: lacks %s' % (
            path, ', '.join(missing)))
    for key in ('min_microversion', 'max_microversion'):
        if key in meta and not isinstance(meta[key], str):
            raise GabbiFileError(
                '%s: meta %s must be a quoted string ("1.10", not 1.10, '
                'which YAML reads as 1.1)' % (path, key))
    if not isinstance(meta.get('smoke', False), bool):
        raise GabbiFileError('%s: meta smoke is true or false (a quick, '
                             'harmless test `tempest run --smoke` selects)'
                             % path)
    try:
        if str(uuid.UUID(str(meta['id']))) != str(meta['id']):
            raise ValueError
    except ValueError:
        raise GabbiFileError('%s: meta id %r is not a canonical UUID' % (
            path, meta['id']))
    _check_requests(path, data)
    _check_run_names(path, data, meta)
    return data


def _strings(node):
    """Every string in a YAML tree, mapping keys included."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(key)
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def _check_run_names(path, data, meta):
    requests = {'defaults': data.get('defaults'), 'tests': data['tests']}
    names = {PREFIX, *CALLER}
    if meta.get('topology'):
        spec = _topologies_next_to(path).get(meta['topology'])
        if spec is None:
            raise GabbiFileError('%s: meta topology %r is not in '
                                 '_topologies.yaml' % (path, meta['topology']))
        names |= topology.value_names(spec)
    for text in _strings(requests):
        if '$ENVIRON' in text:
            raise GabbiFileError(
                "%s: %r: write $RUN['NAME'] for the run's values; the suite "
                "does not set environment variables" % (path, text))
        for match in RUN_VALUE.finditer(text):
            if match.group('name') not in names:
                raise GabbiFileError('%s: %s is not defined here (defined: '
                                     '%s)' % (path, match.group(0),
                                              ', '.join(sorted(names))))


def with_run_values(data, values):
    """A copy of ``data`` with every $RUN['NAME'] replaced by its value."""
    def replace(node):
        if isinstance(node, str):
            return RUN_VALUE.sub(lambda m: values[m.group('name')], node)
        if isinstance(node, dict):
            return {replace(k): replace(v) for k, v in node.items()}
        if isinstance(node, list):
            return [replace(item) for item in node]
        return node
    return replace(data)


def _check_requests(path, data):
    """Refuse requests that cannot fail (see the module docstring)."""
    defaults = data.get('defaults') or {}
    tests = data['tests']
    if not isinstance(defaults, dict) or not isinstance(tests, list) or not (
            all(isinstance(t, dict) for t in tests)):
        raise GabbiFileError('%s: defaults: must be a mapping and tests: a '
                             'list of requests' % path)
    problem = _never_failing(defaults)
    if problem:
        raise GabbiFileError('%s: defaults: %s' % (path, problem))
    for i, test in enumerate(tests):
        problem = (_never_failing(test) or
                   _status_only(test, defaults, tests[i + 1:i + 2]))
        if problem:
            raise GabbiFileError('%s: request %r: %s' % (
                path, test.get('name', '#%d' % (i + 1)), problem))


def _never_failing(test):
    for key, why in NEVER_FAILING_KEYS.items():
        if key in test:
            return '%s is not allowed: %s; remove it' % (key, why)
    for key in gabbi_handlers.SET_KEYS:
        if key in test and not test[key]:
            return ('%s: [] asserts nothing: list the expected providers, '
                    'or write "%s: none" to assert there are none' % (
                        key, key))
    return None


def _asserts_beyond_status(test, defaults):
    return any(key.startswith('response_') and value
               for source in (defaults, test)
               for key, value in source.items())


def _method_and_url(test):
    for key, value in test.items():
        if key.isupper():
            return key, value
    return str(test.get('method', 'GET')).upper(), test.get('url')


def _status_only(test, defaults, following):
    if _asserts_beyond_status(test, defaults):
        return None
    desc = str(test.get('desc') or '')
    if SPEC_DESC.match(desc):
        return None
    method, url = _method_and_url(test)
    if STEP_DESC.match(desc):
        if method != 'DELETE':
            return 'desc "step: ..." is only for a DELETE'
        if not following or _method_and_url(following[0])[1] != url or (
                not _asserts_beyond_status(following[0], defaults)):
            return ('a "step:" DELETE must be followed by a request to the '
                    'same URL that asserts more than its status')
        return None
    return ('asserts only its status: add an assertion on the body (the '
            'field the spec is about), or start desc: with "spec NNN: '
            '<the spec\'s words that fix this status>"')


def test_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return 'test_' + re.sub(r'[^0-9a-zA-Z]+', '_', stem).strip('_')


def topologies(service):
    return _read_topologies(gabbi_dir(service))


def _topologies_next_to(path):
    return _read_topologies(os.path.dirname(os.path.abspath(path)))


def _read_topologies(directory):
    path = os.path.join(directory, '_topologies.yaml')
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return yaml.safe_load(f) or {}
