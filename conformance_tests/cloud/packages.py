"""Refuse to start a service whose pinned upstream package is missing."""

from importlib import metadata
import re

from conformance_tests.common import paths

CONSTRAINTS = 'upper-constraints.txt'
INSTALL_HINT = ('pip install -c upper-constraints.txt -e ".[cloud]" '
                '(or use `tox -e conformance`)')


def pins():
    """{normalised distribution name: version} from the constraints file."""
    result = {}
    with open(paths.data_path(CONSTRAINTS)) as f:
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
    pinned = pins()
    for service in services:
        dist = service.distribution
        if dist is None:
            continue
        want = pinned.get(_norm(dist))
        try:
            have = metadata.version(dist)
        except metadata.PackageNotFoundError:
            return '%s (%s%s) is not installed: %s' % (
                service.name, dist, '==' + want if want else '', INSTALL_HINT)
        if want and have != want:
            return '%s %s is installed but %s pins %s: %s' % (
                dist, have, CONSTRAINTS, want, INSTALL_HINT)
    return None
