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

"""What the embedded cloud of this virtualenv is, in a report's words:
its series when older than today's, and each upstream service's
version."""

from conformance_tests.cloud import packages
from conformance_tests.cloud import releases
from conformance_tests.cloud import services


class TargetError(Exception):
    """The pins cannot be read: one line."""


def older_release():
    """The series this virtualenv's cloud runs, when it is not today's
    (`--release` re-ran the command here), else None."""
    series = packages.release()
    return None if series == releases.CURRENT else series


def versions():
    """{distribution: version} of each upstream service the embedded cloud
    runs and of Tempest: the pinned one, or (what a series does not pin,
    e.g. senlin in an older series) the installed one."""
    try:
        pins = packages.pins()
    except ValueError as e:
        raise TargetError(str(e))
    dists = [s.distribution for s in services.all() if s.distribution]
    return {dist: pins.get(packages._norm(dist)) or _installed(dist)
            for dist in dists + ['tempest']}


def describe(profile):
    """What a run judged: each upstream service at its version; an older
    series is named first."""
    series = older_release()
    return 'embedded cloud, %sprofile %s (%s)' % (
        'release %s, ' % series if series else '', profile, ', '.join(
            '%s %s' % item for item in versions().items()))


def _installed(dist):
    version = packages.installed_version(dist)
    return '.'.join(str(n) for n in version) if version else '?'
