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
"""

import os
import re
import uuid

import yaml

from conformance_tests.common import paths

REQUIRED_META = ('id', 'rule', 'min_microversion')


class GabbiFileError(ValueError):
    pass


def gabbi_dir(service):
    return os.path.join(paths.data_path('gabbits'), service)


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
    try:
        if str(uuid.UUID(str(meta['id']))) != str(meta['id']):
            raise ValueError
    except ValueError:
        raise GabbiFileError('%s: meta id %r is not a canonical UUID' % (
            path, meta['id']))
    return data


def test_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return 'test_' + re.sub(r'[^0-9a-zA-Z]+', '_', stem).strip('_')


def topologies(service):
    path = os.path.join(gabbi_dir(service), '_topologies.yaml')
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return yaml.safe_load(f) or {}
