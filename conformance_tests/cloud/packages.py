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

"""Refuse to start a service whose pinned upstream package is missing.

The pins are those of the release series this interpreter runs: today's
(``upper-constraints.txt``) in the suite's own virtualenv, or, when
``$CONFORMANCE_RELEASE`` names an older series (`--release` sets it in
the series' virtualenv it re-executes in), that series' services file,
``constraints/<series>.services.txt`` (cloud/releases.py).
"""

from importlib import metadata
import os
import re

from conformance_tests.common import paths

CONSTRAINTS = 'upper-constraints.txt'
INSTALL_HINT = ('pip install -c upper-constraints.txt -e ".[cloud]" '
                '(or use `tox -e conformance`)')
RELEASE_VARIABLE = 'CONFORMANCE_RELEASE'


def release():
    """The series this interpreter runs (cloud/releases.py), from
    ``$CONFORMANCE_RELEASE``; unset or empty: the current one."""
    from conformance_tests.cloud import releases
    return os.environ.get(RELEASE_VARIABLE) or releases.CURRENT


def _pins_source():
    """(path, name shown in messages, install hint) of the running
    series' pins."""
    from conformance_tests.cloud import releases
    series = release()
    if series == releases.CURRENT:
        return paths.data_path(CONSTRAINTS), CONSTRAINTS, INSTALL_HINT
    try:
        releases.check_series(series)
    except releases.ReleaseError as e:
        raise ValueError('$%s: %s' % (RELEASE_VARIABLE, e))
    path = releases.services_file(series)
    return path, 'constraints/%s' % os.path.basename(path), (
        'remove %s so that `--release %s` builds it again' % (
            releases.venv_dir(series), series))


def installed_version(dist):
    """The installed version of distribution ``dist`` as a tuple of its
    leading numbers ((29, 4, 0) for '29.4.0'), or None if it is not
    installed. What a descriptor chooses its per-release code by."""
    try:
        version = metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None
    return tuple(int(n) for n in re.findall(r'\d+', version.split('+')[0])[:3]
                 ) or None


def pins():
    """{normalised distribution name: version} from the running series'
    constraints file."""
    result = {}
    with open(_pins_source()[0]) as f:
        for line in f:
            match = re.match(r'^([A-Za-z0-9_.\-]+)===?([^\s;#]+)', line)
            if match:
                result[_norm(match.group(1))] = match.group(2)
    return result


def _norm(name):
    return re.sub(r'[-_.]+', '-', name).lower()


def check_pinned(services):
    """Return a one-line problem description, or None if all is well.

    ``services`` are descriptors (cloud/services/); those whose
    ``distribution`` is None are ours, not upstream packages.
    """
    try:
        pinned = pins()
        _, source, hint = _pins_source()
    except ValueError as e:
        return str(e)
    for service in services:
        dist = service.distribution
        if dist is None:
            continue
        want = pinned.get(_norm(dist))
        try:
            have = metadata.version(dist)
        except metadata.PackageNotFoundError:
            return '%s (%s%s) is not installed: %s' % (
                service.name, dist, '==' + want if want else '', hint)
        if want and have != want:
            return '%s %s is installed but %s pins %s: %s' % (
                dist, have, source, want, hint)
    return None
