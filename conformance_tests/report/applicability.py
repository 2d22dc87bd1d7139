"""Which skips say the cloud *cannot show* a capability.

A capability is `not-applicable` when every test of it skipped because
the cloud lacks what it needs: the service (disabled or absent from the
catalog), a microversion, or the rights of the account. Every other skip
(an option a vendor could set, a zone not named) leaves it `partial`.
The skip messages are the suite's own (common/skips.py,
common/microversion.py) and Tempest's (its admin-credentials and
microversion checks); each pattern below is one of them.
"""

import re

SERVICE = 'service'
MICROVERSION = 'microversion'
ADMIN = 'admin'

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
)


def reason(message):
    """(kind, one-line reason) if ``message`` says the cloud cannot show
    the test, else None. kind is SERVICE, MICROVERSION or ADMIN."""
    for kind, pattern in _PATTERNS:
        match = pattern.search(message or '')
        if not match:
            continue
        if kind == SERVICE:
            return kind, 'service not available: %s' % match.group('flag')
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


# API types a gate may name instead of the [service_available] flag.
_FLAG_OF_TYPE = {'clustering': 'senlin', 'reservation': 'blazar',
                 'compute': 'nova', 'image': 'glance',
                 'network': 'neutron', 'placement': 'placement'}


def normalise_requirements(wanted):
    """Requirement words as required() reads them; ValueError names an
    unknown one."""
    known_flags = set(_FLAG_OF_TYPE.values())
    out = set()
    for word in wanted:
        word = word.strip().lower()
        if word in (ADMIN, MICROVERSION) or word in known_flags:
            out.add(word)
        elif word in _FLAG_OF_TYPE:
            out.add(_FLAG_OF_TYPE[word])
        else:
            raise ValueError(
                '--require %s: not a service, admin or microversion (known: '
                '%s)' % (word, ', '.join(sorted(
                    known_flags | set(_FLAG_OF_TYPE) | {ADMIN,
                                                        MICROVERSION}))))
    return sorted(out)
