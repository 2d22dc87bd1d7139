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

"""Microversion skips: Tempest's rule, and a message saying what to set.

Test classes declare the microversions they send with Tempest's
attributes (``api_version_utils.BaseMicroversionTest``:
``min_microversion`` / ``max_microversion`` for compute) and Tempest's
own function decides (``api_version_utils.check_skip_with_microversion``).
So the meaning is the one every Tempest user knows: a microversion
runs only inside [<service>] min_microversion .. max_microversion, and
with max_microversion unset the cloud declares no microversion at all.

What stays ours, and why:
- Tempest's skip message names no option; ours says which one to set
  and to what.
- Tempest reads a class's range as "runs at any one version in it". Our
  tests assert behaviour at the versions they name, and a test of a
  boundary (2.68 and 2.69, 1.31 and 1.32) sends both ends, so both ends
  must lie in the configured range: each is checked on its own.
"""

import testtools

from tempest.lib.common import api_version_request
from tempest.lib.common import api_version_utils
from tempest.lib import exceptions as lib_exc

LATEST = api_version_utils.LATEST_MICROVERSION


class MicroversionConfigError(ValueError):
    """A configured or declared microversion Tempest cannot read."""


def _tempest_value(version, where):
    """None for unset (Tempest's 'no microversion'), else the string.

    ``where`` names the setting, for the error when it is not X.Y.
    """
    if version is None or str(version).strip() == '':
        return None
    value = str(version).strip().lower()
    try:
        api_version_request.APIVersionRequest(value)
    except lib_exc.InvalidAPIVersionString:
        raise MicroversionConfigError(
            '%s is %r, not a microversion of the form X.Y (or latest)' % (
                where, version))
    return value


def _check(version, conf_min, conf_max):
    """Tempest's verdict for one version: True when it may be sent."""
    try:
        api_version_utils.check_skip_with_microversion(
            version, version, conf_min, conf_max)
    except testtools.TestCase.skipException:
        return False
    return True


def _below(version, bound):
    return (api_version_request.APIVersionRequest(version) <
            api_version_request.APIVersionRequest(bound))


def skip_reason(service, needed_min, needed_max, conf_min, conf_max):
    """Why a test sending needed_min (and needed_max) cannot run, or None.

    needed_max None means the test sends needed_min only; 'latest' means
    it sends needed_min and accepts anything newer (not checked). The
    cloud's range is [<service>] min_microversion / max_microversion.
    Raises MicroversionConfigError for a value that is not X.Y or
    'latest', or a configured min above the configured max.
    """
    conf_min = _tempest_value(conf_min, '[%s] min_microversion' % service)
    conf_max = _tempest_value(conf_max, '[%s] max_microversion' % service)
    if conf_min and not conf_max:
        raise MicroversionConfigError(
            '[%s] min_microversion is %s but max_microversion is not set: '
            'set max_microversion (e.g. latest)' % (service, conf_min))
    if conf_min and _below(conf_max, conf_min):
        raise MicroversionConfigError(
            '[%s] min_microversion %s is above max_microversion %s' % (
                service, conf_min, conf_max))
    wanted = [_tempest_value(needed_min, 'the test\'s min microversion')]
    needed_max = _tempest_value(needed_max, 'the test\'s max microversion')
    if needed_max not in (None, LATEST):
        wanted.append(needed_max)
    failing = [v for v in filter(None, wanted)
               if not _check(v, conf_min, conf_max)]
    if not failing:
        return None
    lowest, highest = failing[0], failing[-1]
    if conf_max is None:
        return ('needs %s microversion %s but [%s] max_microversion is '
                'not set (to Tempest: the cloud offers none): set it to '
                '%s or later, or latest' % (
                    service, highest, service, highest))
    if conf_min and _below(lowest, conf_min):
        return ('needs %s microversion %s but [%s] min_microversion is '
                '%s; lower min_microversion to %s if the cloud supports '
                'it' % (service, lowest, service, conf_min, lowest))
    return ('needs %s microversion %s but [%s] max_microversion is %s; '
            'raise max_microversion to %s if the cloud supports it' % (
                service, highest, service, conf_max, highest))


def class_skip_reason(cls, conf):
    """Skip reason of a test class from its Tempest attributes.

    ``cls.min_microversion`` / ``cls.max_microversion`` are the compute
    microversions the class sends (Tempest's compute attributes); None
    for both means it sends none.
    """
    return skip_reason('compute', cls.min_microversion,
                       cls.max_microversion, conf.compute.min_microversion,
                       conf.compute.max_microversion)


def request_microversion(cls, conf):
    """The compute microversion Tempest's clients send for ``cls``.

    Tempest's choice (select_request_microversion): the class's minimum,
    or the configured minimum if that is higher (the class was skipped
    if it cannot send its own).
    """
    return api_version_utils.select_request_microversion(
        cls.min_microversion, _tempest_value(
            conf.compute.min_microversion, '[compute] min_microversion'))
