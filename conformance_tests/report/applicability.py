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

"""Which skips say the cloud *cannot show* a capability.

A capability is `not-applicable` when every test of it skipped because
the cloud lacks what it needs: the service (disabled or absent from the
catalog), a microversion, the rights of the account, data only the
suite's own cloud lets it shape (an unmigrated instance mapping), or
hypervisors of the kind its rule is about (a case that only a cloud
without a vSphere DRS host can show, or only one with it). Every other skip
(an option a vendor could set, a zone not named) leaves it `partial`.
The skip messages are the suite's own (common/skips.py,
common/microversion.py) and Tempest's (its admin-credentials and
microversion checks); each pattern below is one of them.
"""

import re

SERVICE = 'service'
MICROVERSION = 'microversion'
ADMIN = 'admin'
HYPERVISORS = 'hypervisors'
QUOTA = 'quota'
DATA = 'data'

_PATTERNS = (
    # common/skips.unavailable
    (SERVICE, re.compile(
        r'(?P<what>[\w-]+) is not available: set \[service_available\] '
        r'(?P<flag>[\w-]+) = true')),
    # common/microversion.skip_reason
    (MICROVERSION, re.compile(
        r'needs (?P<what>\w+) microversion (?P<version>\S+) but \[\w+\] '
        r'(?:min|max)_microversion')),
    # tempest.lib.common.api_version_utils.check_skip_with_microversion
    (MICROVERSION, re.compile(
        r'The microversion range\[(?P<what>[^\]]+)\] of this test is out '
        r'of the configuration range')),
    # tempest.test.BaseTestCase.skip_checks / the suite's member mode
    (ADMIN, re.compile(r'Missing Identity Admin API credentials|'
                       r'needs admin(?P<what>: [^.;]+)?')),
    # common/skips.hypervisors_cannot_show
    (HYPERVISORS, re.compile(
        r'needs a cloud whose hypervisors (?P<what>[^;\n]+)')),
    # common/faults.USER_ID_MIGRATION_CANNOT_SHOW
    (DATA, re.compile(
        r'needs a cloud whose data the suite controls: (?P<what>[^;\n]+)')),
    # common/skips.NO_UNIFIED_LIMITS
    (QUOTA, re.compile(
        r'needs a cloud whose nova counts quota with unified limits')),
)


def reason(message):
    """(kind, one-line reason) if ``message`` says the cloud cannot show
    the test, else None. kind is one of the kinds above."""
    for kind, pattern in _PATTERNS:
        match = pattern.search(message or '')
        if not match:
            continue
        if kind == SERVICE:
            return kind, 'service not available: %s' % match.group('flag')
        if kind == HYPERVISORS:
            return kind, 'the cloud\'s hypervisors cannot show it: it ' \
                'needs hypervisors %s' % match.group('what').strip()
        if kind == DATA:
            return kind, 'the suite does not control this cloud\'s data: ' \
                'it needs %s' % match.group('what').strip()
        if kind == QUOTA:
            return kind, 'nova does not count quota with unified limits ' \
                '([compute-feature-enabled] unified_limits is false)'
        if kind == MICROVERSION:
            return kind, 'microversion not offered: %s' % (
                message.strip().splitlines()[0][:200])
        return kind, 'needs admin%s' % (match.group('what') or '')
    return None


def required(kind_and_reason, requirements):
    """Whether a run that requires ``requirements`` (service flags such as
    'senlin', or 'admin', or 'microversion') must count this reason as a
    failure: a gate that must have the service."""
    kind, text = kind_and_reason
    wanted = set(requirements or ())
    if kind == SERVICE:
        return text.rsplit(': ', 1)[-1] in wanted
    return kind in wanted


def normalise_requirements(wanted):
    """Requirement words as required() reads them: a service by its
    [service_available] name or by its API's catalog type (the API
    registry, services/), admin, microversion. ValueError names an
    unknown one."""
    from conformance_tests import services
    flag_of = {}
    for api in services.all():
        flag = api.available_flag()
        if flag:
            flag_of[flag[0]] = flag[0]
            if api.catalog_type:
                flag_of[api.catalog_type] = flag[0]
    # Tempest's own services, which have no API package of ours.
    flag_of.update({'glance': 'glance', 'image': 'glance',
                    'neutron': 'neutron', 'network': 'neutron'})
    out = set()
    for word in wanted:
        word = word.strip().lower()
        if word in (ADMIN, MICROVERSION):
            out.add(word)
        elif word in flag_of:
            out.add(flag_of[word])
        else:
            raise ValueError(
                '--require %s: not a service, admin or microversion (known: '
                '%s)' % (word, ', '.join(sorted(
                    set(flag_of) | {ADMIN, MICROVERSION}))))
    return sorted(out)
