"""Mutants of nova's server-group rules (spec seed 000, compute 2.64).

Applied in the nova process after nova's harness is set up and before the
conductor, scheduler and computes start.
"""

import contextlib
import functools
import threading

from conformance_tests.cloud.mutants import register

_in_check = threading.local()


@contextlib.contextmanager
def _checking():
    _in_check.active = True
    try:
        yield
    finally:
        _in_check.active = False


def _rules_seen_by_checks(replace):
    """Make InstanceGroup.rules return replace(rules) inside the checks.

    The checks are the scheduler's anti-affinity filter and the compute's
    late check; the API keeps showing the real rules, so a mutant stays
    invisible to the API tests and breaks only the scheduling rule.
    """
    from nova.compute import manager
    from nova.objects import instance_group
    from nova.scheduler.filters import affinity_filter

    real_rules = instance_group.InstanceGroup.rules

    def rules(self):
        found = real_rules.fget(self)
        if getattr(_in_check, 'active', False):
            return replace(found)
        return found

    instance_group.InstanceGroup.rules = property(rules)

    for cls, name in ((affinity_filter._GroupAntiAffinityFilter,
                       'host_passes'),
                      (manager.ComputeManager,
                       '_validate_instance_group_policy')):
        original = getattr(cls, name)

        def checked(self, *args, _original=original, **kwargs):
            with _checking():
                return _original(self, *args, **kwargs)

        setattr(cls, name, checked)


@register(
    'anti-affinity-ignores-rules', 'nova',
    targets=('compute.server-group-rules.spread-max-server-per-host',),
    rule='max_server_per_host=K lets K servers of an anti-affinity group '
         'share a host')
def ignores_rules():
    _rules_seen_by_checks(lambda rules: {})


@register(
    'default-limit-not-one', 'nova',
    targets=('compute.server-group-rules.default-limit-one',),
    rule='without rules, max_server_per_host defaults to 1')
def default_limit_not_one():
    _rules_seen_by_checks(
        lambda rules: rules or {'max_server_per_host': 2})


@register(
    'anti-affinity-not-enforced', 'nova',
    targets=('compute.server-group-rules.overflow',
             'compute.server-group-rules.spread-max-server-per-host',
             'compute.server-group-rules.default-limit-one'),
    rule='no host ever holds more than max_server_per_host servers of an '
         'anti-affinity group')
def not_enforced():
    from nova import conf
    from nova.scheduler.filters import affinity_filter

    affinity_filter._GroupAntiAffinityFilter.host_passes = (
        lambda self, host_state, spec_obj: True)
    # The compute's late re-check has an off switch in nova itself.
    conf.CONF.set_override('disable_group_policy_check_upcall', True,
                           group='workarounds')


@register(
    'view-2-64-keeps-policies', 'nova',
    targets=('compute.server-group-rules.api-shapes-2-64',),
    rule='from 2.64 a server group shows policy and rules, and no longer '
         'policies or metadata')
def view_keeps_policies():
    _extend_group_view(lambda shown, group, from_2_64: shown.update(
        policies=[group.policy], metadata={}) if from_2_64 else None)


def _extend_group_view(extend):
    """Let ``extend(shown, group, from_2_64)`` add to every group view."""
    from nova.api.openstack import api_version_request
    from nova.api.openstack.compute import server_groups

    original = server_groups.ServerGroupController._format_server_group

    def extended(self, context, group, req, *args, **kwargs):
        shown = original(self, context, group, req, *args, **kwargs)
        extend(shown, group, api_version_request.is_supported(req, '2.64'))
        return shown

    server_groups.ServerGroupController._format_server_group = extended


def _drop_rules_on_create(policies):
    """Create server groups as if rules had not been sent for policies."""
    from nova.api.openstack.compute import server_groups

    original = server_groups.ServerGroupController.create

    # functools.wraps keeps what nova's decorators hung on the method
    # (response code, schemas) where nova's WSGI layer looks for it.
    @functools.wraps(original)
    def dropping_rules(self, req, body):
        group = (body or {}).get('server_group', {})
        if isinstance(group, dict) and group.get('policy') in policies:
            group.pop('rules', None)
        return original(self, req, body=body)

    server_groups.ServerGroupController.create = dropping_rules


@register(
    'rules-on-affinity-accepted', 'nova',
    targets=('compute.server-group-rules.negative-2-64',),
    rule='only the anti-affinity policy accepts rules (400 otherwise)')
def rules_on_affinity_accepted():
    _drop_rules_on_create(
        ('affinity', 'soft-affinity', 'soft-anti-affinity'))


@register(
    'rules-not-stored', 'nova',
    targets=('compute.server-group-rules.api-shapes-2-64',
             'compute.server-group-rules.integer-string-coercion',
             'compute.server-group-rules.openstackclient'),
    rule='the rules given at create are stored and shown (2.64)')
def rules_not_stored():
    _drop_rules_on_create(('anti-affinity',))


@register(
    'limit-zero-accepted', 'nova',
    targets=('compute.server-group-rules.negative-2-64',),
    rule='max_server_per_host must be an integer >= 1 (0 is a 400)')
def limit_zero_accepted():
    from nova.api.openstack.compute.schemas import server_groups as schema

    rules = schema.create_v264['properties']['server_group'][
        'properties']['rules']
    rules['properties']['max_server_per_host'] = dict(
        rules['properties']['max_server_per_host'], minimum=0)


@register(
    'view-2-63-shows-policy', 'nova',
    targets=('compute.server-group-rules.shapes-2-63',),
    rule='below 2.64 a server group shows policies and metadata, and no '
         'policy or rules')
def view_2_63_shows_policy():
    _extend_group_view(lambda shown, group, from_2_64: shown.update(
        policy=group.policy, rules=group.rules or {})
        if not from_2_64 else None)


@register(
    'affinity-not-enforced', 'nova',
    targets=('compute.server-group-rules.affinity-unchanged',),
    rule='the affinity policy puts every server of the group on one host')
def affinity_not_enforced():
    from nova import conf
    from nova.scheduler.filters import affinity_filter

    affinity_filter._GroupAffinityFilter.host_passes = (
        lambda self, host_state, spec_obj: True)
    conf.CONF.set_override('disable_group_policy_check_upcall', True,
                           group='workarounds')
