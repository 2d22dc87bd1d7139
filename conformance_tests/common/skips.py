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

"""Class skips that come from config; each message names what to set.

Tempest's way: a test class checks config in ``skip_checks`` and raises
``cls.skipException`` with the reason, never skips on an error it
caught. The functions here take the conf explicitly (the self-tests
pass their own).
"""


def unavailable(conf, service, to_run):
    """Why tests that need ``service`` cannot run, or None.

    ``to_run`` ends the message: "... = true to run <to_run>".
    """
    if getattr(conf.service_available, service):
        return None
    return ('%s is not available: set [service_available] %s = true to '
            'run %s' % (service, service, to_run))


def skip_if(cls, reason):
    """Raise ``cls.skipException(reason)`` unless there is no reason."""
    if reason:
        raise cls.skipException(reason)


def require_service(cls, conf, service, to_run):
    """Skip ``cls`` unless [service_available] ``service`` is true."""
    skip_if(cls, unavailable(conf, service, to_run))


# What only an admin can do, for an account that is not one (a vendor's
# project member). report/applicability.py reads "needs admin: <call>"
# as not-applicable, with the call as the reason; the reason ends at the
# first '.' or ';', so a call is named without them.
NEEDS_ADMIN = 'needs admin: %s'
_ADMIN_ONLY = 'conformance_admin_only'


def needs_admin(call):
    """The skip message of something only an admin can do: "needs admin:
    <call>", ``call`` naming the API call ("GET /os-hypervisors")."""
    if '.' in call or ';' in call:
        raise ValueError('%r: a call named for "needs admin" holds no '
                         '"." or ";" (the report\'s reason ends there)' %
                         call)
    return NEEDS_ADMIN % call


def admin_only(call):
    """Decorator: the test needs admin for ``call``, in a class that
    otherwise runs as a project member. Without admin it is skipped with
    needs_admin(call) (see admin_only_reason); its idempotent id and
    other decorators are untouched."""
    needs_admin(call)  # refuse a bad name when the module is imported

    def mark(test):
        setattr(test, _ADMIN_ONLY, call)
        return test
    return mark


def admin_only_reason(test_case, has_admin):
    """needs_admin(call) when ``test_case`` runs a test marked
    admin_only(call) and ``has_admin`` is false, else None."""
    if has_admin:
        return None
    method = getattr(test_case, test_case._testMethodName, None)
    call = getattr(method, _ADMIN_ONLY, None)
    return needs_admin(call) if call else None


# A rule about hypervisors the cloud does not have (S3's "No suitable
# vSphere host" needs a cloud without a DRS host; its placement one with
# it). report/applicability.py reads "needs a cloud whose hypervisors
# <what>" as not-applicable, with <what> as the reason, up to a ';'.
HYPERVISORS_CANNOT_SHOW = 'needs a cloud whose hypervisors %s; %s'


def hypervisors_cannot_show(what, seen):
    """The skip message of a test whose rule the cloud's hypervisors
    cannot show: ``what`` the hypervisors it needs, ``seen`` what the
    cloud has instead."""
    if ';' in what:
        raise ValueError('%r: holds a ";" (the report\'s reason ends '
                         'there)' % what)
    return HYPERVISORS_CANNOT_SHOW % (what, seen)


# A rule only a cloud whose nova counts quota with keystone's unified
# limits can show (disk, which nova's legacy quota has no quota for).
# report/applicability.py reads it as not-applicable.
NO_UNIFIED_LIMITS = (
    'needs a cloud whose nova counts quota with unified limits: set '
    '[compute-feature-enabled] unified_limits = true where nova\'s [quota] '
    'driver is nova.quota.UnifiedLimitsDriver (nova\'s legacy quota has no '
    'disk quota)')
