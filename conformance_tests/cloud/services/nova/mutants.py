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

"""Mutants of nova's server-group rules (spec seed 000, compute 2.64).

Applied in the nova process after nova's harness is set up and before the
conductor, scheduler and computes start.
"""

import contextlib
import functools
import threading

from conformance_tests.cloud.mutants import reference
from conformance_tests.cloud.mutants import register

_in_check = threading.local()


@contextlib.contextmanager
def _checking():
    _in_check.active = True
    try:
        yield
    finally:
        _in_check.active = False


def _rules_seen_by_checks(replace, late_check=True, scheduler_filter=True):
    """Make InstanceGroup.rules return replace(rules) inside the checks.

    The checks are the scheduler's anti-affinity filter and the compute's
    late check (each may be left out to break only the other); the API
    keeps showing the real rules, so a mutant stays invisible to the API
    tests and breaks only the scheduling rule.
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

    checks = []
    if late_check:
        checks.append((manager.ComputeManager,
                       '_validate_instance_group_policy'))
    if scheduler_filter:
        checks.append((affinity_filter._GroupAntiAffinityFilter,
                       'host_passes'))
    for cls, name in checks:
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
    'anti-affinity-counts-every-server', 'nova',
    targets=('compute.server-group-rules.spread-max-server-per-host',),
    rule='max_server_per_host compares the group\'s servers on a host '
         '(here the filter counts every server on the host)')
def counts_every_server():
    from nova.scheduler.filters import affinity_filter

    original = affinity_filter._GroupAntiAffinityFilter.host_passes

    def host_passes(self, host_state, spec_obj):
        group = spec_obj.instance_group
        if (not group or group.policy != self.policy_name or
                spec_obj.instance_uuid in host_state.instances):
            return original(self, host_state, spec_obj)
        limit = (group.rules or {}).get('max_server_per_host', 1)
        return len(host_state.instances) < limit

    affinity_filter._GroupAntiAffinityFilter.host_passes = host_passes


@register(
    'late-check-skipped', 'nova',
    targets=('compute.server-group-rules.late-check',),
    rule='the compute re-checks the group\'s policy after the claim (here '
         'nova\'s own switch turns the late check off)')
def late_check_skipped():
    from nova import conf

    conf.CONF.set_override('disable_group_policy_check_upcall', True,
                           group='workarounds')


@register(
    'late-check-one-over', 'nova',
    targets=('compute.server-group-rules.late-check',),
    rule='the late check allows max_server_per_host servers of the group '
         'on a host, not one more')
def late_check_one_over():
    _rules_seen_by_checks(_one_over, scheduler_filter=False)


@register(
    'filter-one-over', 'nova',
    targets=('compute.server-group-rules.spread-max-server-per-host',
             'compute.server-group-rules.default-limit-one'),
    rule='the scheduler\'s filter filters out a host holding '
         'max_server_per_host servers of the group, so the next server has '
         'no valid host (here the filter allows one more and only the '
         'compute\'s late check refuses it)')
def filter_one_over():
    _rules_seen_by_checks(_one_over, late_check=False)


def _one_over(rules):
    return {'max_server_per_host': 1 + (rules or {}).get(
        'max_server_per_host', 1)}


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


def _wrap_create(make):
    """Replace ServerGroupController.create by ``make(original)``.

    nova before 32 (2024.1, 2025.1) dispatches a method decorated with
    ``api_version`` through the class's ``versioned_methods`` registry,
    which a class attribute does not reach: there each registered
    function is wrapped instead. Today's nova calls the attribute.
    """
    from nova.api.openstack.compute import server_groups

    controller = server_groups.ServerGroupController
    registered = (getattr(controller, 'versioned_methods', None) or {}).get(
        'create')
    if registered:
        for method in registered:
            method.func = make(method.func)
    else:
        controller.create = make(controller.create)


def _alter_answer(action, alter):
    """Let ``alter(answer)`` change (or refuse, by raising: a 500) what
    ServerGroupController.``action`` answers."""
    from nova.api.openstack.compute import server_groups

    controller = server_groups.ServerGroupController
    original = getattr(controller, action)

    @functools.wraps(original)
    def altered(self, req, *args, **kwargs):
        return alter(original(self, req, *args, **kwargs))

    setattr(controller, action, altered)


def _drop_rules_on_create(policies):
    """Create server groups as if rules had not been sent for policies."""
    def make(original):
        # functools.wraps keeps what nova's decorators hung on the method
        # (response code, schemas) where nova's WSGI layer looks for it.
        @functools.wraps(original)
        def dropping_rules(self, req, body):
            group = (body or {}).get('server_group', {})
            if isinstance(group, dict) and group.get('policy') in policies:
                group.pop('rules', None)
            return original(self, req, body=body)
        return dropping_rules

    _wrap_create(make)


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
             'compute.server-group-rules.openstackclient',
             'compute.server-group-rules.novaclient'),
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


def _swap_owner(shown, group, from_2_64):
    if 'project_id' in shown and 'user_id' in shown:
        shown['project_id'], shown['user_id'] = (
            shown['user_id'], shown['project_id'])


@register(
    'server-group-owner-swapped', 'nova',
    targets=('compute.server-group-rules.api-shapes-2-64',
             'compute.server-group-rules.shapes-2-63'),
    rule='a server group shows the project and the user that created it '
         '(here each in the other\'s field)')
def server_group_owner_swapped():
    _extend_group_view(_swap_owner)


@register(
    'server-group-list-null-rules', 'nova',
    targets=('compute.server-group-rules.api-shapes-2-64',),
    rule='at 2.64 GET /os-server-groups shows rules {} for a group '
         'created without rules, as show does (here the list shows null)')
def server_group_list_null_rules():
    def null_rules(listed):
        for group in listed.get('server_groups', ()):
            if group.get('rules') == {}:
                group['rules'] = None
        return listed

    _alter_answer('index', null_rules)


@register(
    'server-group-show-500-with-members', 'nova',
    targets=('compute.server-group-rules.spread-max-server-per-host',
             'compute.server-group-rules.default-limit-one',
             'compute.server-group-rules.overflow',
             'compute.server-group-rules.late-check'),
    rule='a server that failed to schedule stays a member of its group, '
         'as GET /os-server-groups/{id} shows (here a group with members '
         'answers 500)')
def server_group_show_500_with_members():
    def fail_with_members(shown):
        if shown['server_group'].get('members'):
            raise RuntimeError('conformance mutant: a group with members')
        return shown

    # show only: the list still answers, so the tests' cleanup (by list)
    # finds and removes the groups.
    _alter_answer('show', fail_with_members)


def _alter_group_payload(change):
    """Let nova build each server group notification's payload, then
    ``change(payload)`` it before it is sent."""
    from nova.notifications.objects import server_group

    original = server_group.ServerGroupPayload.__init__

    def init(self, group):
        original(self, group)
        change(self)
    server_group.ServerGroupPayload.__init__ = init


@register(
    'server-group-notification-policy-dropped', 'nova',
    targets=('compute.server-group-rules.notifications',),
    rule='server_group.create, add_member and delete notifications carry '
         'the group\'s policy (here the payload\'s policy is null, as '
         'before payload 1.1)')
def server_group_notification_policy_dropped():
    def drop(payload):
        payload.policy = None
    _alter_group_payload(drop)


@register(
    'server-group-notification-rules-dropped', 'nova',
    targets=('compute.server-group-rules.notifications',),
    rule='server group notifications carry the group\'s rules (here the '
         'payload\'s rules are always {})')
def server_group_notification_rules_dropped():
    def drop(payload):
        payload.rules = {}
    _alter_group_payload(drop)


@register(
    'server-group-delete-keeps-group', 'nova',
    targets=('compute.server-group-rules.api-shapes-2-64',
             'compute.server-group-rules.openstackclient',
             'compute.server-group-rules.novaclient'),
    leaves=('server groups',),
    rule='DELETE /os-server-groups/{id} removes the group (here it answers '
         '204 and keeps it)')
def server_group_delete_keeps_group():
    from nova import objects

    objects.InstanceGroup.destroy = lambda self: None


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


# -- The seed's nested policy (seed 000 text, not what nova merged) ------
#
# The seed (complex-anti-affinity-policies) nests the rules in the policy:
# POST {"server_group": {"name", "policy": {"name", "rules"}}} and every
# view shows "policy": {"name", "rules"} (rules {} when none were given)
# with no metadata. Nova 2.64 merged a flat "policy" string and a sibling
# "rules" (nova/api/openstack/compute/schemas/server_groups.py,
# create_v264). The reference below is what the seed's text says, at
# 2.64 and later; guidelines/000-nova-server-group-rules.yaml says which
# capability holds a cloud to which shape.

SEED_NESTED_POLICY = 'compute.server-group-rules.seed-nested-policy'


def _seed_create_schema():
    """The seed's POST /os-server-groups schema, as its text gives it."""
    from nova.api.validation import parameter_types

    return {
        'type': 'object',
        'properties': {
            'server_group': {
                'type': 'object',
                'properties': {
                    'name': parameter_types.name,
                    'policy': {'oneOf': [
                        {'type': 'object',
                         'properties': {
                             'name': {'type': 'string',
                                      'enum': ['anti-affinity']},
                             'rules': {
                                 'type': 'object',
                                 'properties': {
                                     'max_server_per_host':
                                         parameter_types.positive_integer,
                                 },
                                 'additionalProperties': False,
                             }},
                         'required': ['name'],
                         'additionalProperties': False},
                        {'type': 'object',
                         'properties': {
                             'name': {'type': 'string',
                                      'enum': ['affinity',
                                               'soft-anti-affinity',
                                               'soft-affinity']}},
                         'required': ['name'],
                         'additionalProperties': False}]},
                },
                'required': ['name', 'policy'],
                'additionalProperties': False,
            }},
        'required': ['server_group'],
        'additionalProperties': False,
    }


def _nested_view_schemas():
    """Nova's 2.64 response schemas (checked by [api]
    response_validation) with the seed's nested policy, so that nova
    does not log every nested view as a schema violation."""
    from nova.api.openstack.compute.schemas import server_groups as schema

    if not hasattr(schema, 'create_response_v264'):
        # nova before its response schemas (2024.1's 29, 2025.1's 31)
        # checks no response: nothing to tell about the nested view.
        return
    nested = {'type': 'object',
              'properties': {
                  'name': {'type': 'string',
                           'enum': ['affinity', 'anti-affinity',
                                    'soft-affinity', 'soft-anti-affinity']},
                  'rules': {'type': 'object'}},
              'required': ['name', 'rules'],
              'additionalProperties': False}
    for view in (schema.create_response_v264['properties']['server_group'],
                 schema.show_response_v264['properties']['server_group'],
                 schema.index_response_v264['properties']['server_groups'][
                     'items']):
        view['properties'].pop('rules', None)
        view['properties']['policy'] = nested
        view['required'] = [k for k in view['required'] if k != 'rules']


def _nest_views(nest):
    """Let ``nest(shown)`` rewrite every group view at 2.64 and later."""
    from nova.api.openstack import api_version_request
    from nova.api.openstack.compute import server_groups

    original = server_groups.ServerGroupController._format_server_group

    def nested(self, context, group, req, *args, **kwargs):
        shown = original(self, context, group, req, *args, **kwargs)
        if api_version_request.is_supported(req, '2.64'):
            nest(shown)
        return shown

    server_groups.ServerGroupController._format_server_group = nested


def _nest_policy(shown):
    if 'policy' in shown and not isinstance(shown['policy'], dict):
        shown['policy'] = {'name': shown['policy'],
                           'rules': shown.pop('rules', None) or {}}


@reference(
    'server-group-nested-policy', 'nova',
    capabilities=(SEED_NESTED_POLICY,),
    rule='at 2.64 POST /os-server-groups takes "policy": {"name", "rules"} '
         '(the seed\'s schema) and POST, list and show give "policy": '
         '{"name", "rules"}, rules {} when none were given, no metadata')
def server_group_nested_policy():
    """The seed's nested policy at 2.64 and later.

    Requests: a ``policy`` object is validated against the seed's schema
    verbatim (nova's validator, so a refusal is nova's 400) and then
    handed to nova's create as the flat policy and rules it stores;
    upstream's flat request keeps working, so every client that speaks
    2.64 as merged (Tempest, openstacksdk and senlin on it,
    openstackclient, novaclient) can still create groups. Responses: one
    shape per microversion, whatever the request was: from 2.64 every
    view nests the rules in the policy object.
    """
    from nova.api.openstack import api_version_request
    from nova.api.validation import validators

    def make(original):
        # functools.wraps keeps what nova's decorators hung on the method.
        @functools.wraps(original)
        def create(self, req, body):
            group = (body or {}).get('server_group')
            if (isinstance(group, dict)
                    and isinstance(group.get('policy'), dict)
                    and api_version_request.is_supported(req, '2.64')):
                # looked up per request: the reference's mutants loosen it
                validators._SchemaValidator(
                    _seed_create_schema(), False, True).validate(body)
                policy = group['policy']
                body = {'server_group': dict(
                    {k: v for k, v in group.items() if k != 'policy'},
                    policy=policy['name'],
                    **({'rules': policy['rules']} if 'rules' in policy
                       else {}))}
            return original(self, req, body=body)
        return create

    _wrap_create(make)
    _nest_views(_nest_policy)
    _nested_view_schemas()


@register(
    'nested-policy-drops-rules', 'nova',
    targets=(SEED_NESTED_POLICY,),
    profile='spec-reference',
    rule='the nested policy object shows the group\'s rules ({} when none '
         'were given)')
def nested_policy_drops_rules():
    _nest_views(lambda shown: shown['policy'].pop('rules', None)
                if isinstance(shown.get('policy'), dict) else None)


def _loosen_seed_schema(loosen):
    """Let ``loosen(schema)`` change the seed's schema the spec reference
    validates a nested request with (a mutant of the reference)."""
    global _seed_create_schema
    original = _seed_create_schema

    def loosened():
        schema = original()
        loosen(schema)
        return schema

    _seed_create_schema = loosened


def _group_schema(schema):
    return schema['properties']['server_group']


def _policy_forms(schema):
    """The anti-affinity form and the form of the three others."""
    return _group_schema(schema)['properties']['policy']['oneOf']


def _loosening(loosen):
    """A mutant's apply(), defined here (the registry finds a mutant's
    service by the module of its apply)."""
    def apply():
        _loosen_seed_schema(loosen)
    return apply


def _drop(key, where):
    return lambda schema: where(schema).pop(key)


# Each mutant drops one constraint of the seed's schema from the
# reference. (server_group's own additionalProperties has none: the
# reference hands server_group's other keys to nova's flat create, whose
# schema refuses them too, so loosening it changes no answer.)
for _name, _rule, _loosen in (
        ('nested-anti-affinity-takes-other-keys',
         'the anti-affinity policy object takes only name and rules '
         '(additionalProperties false)',
         _drop('additionalProperties', lambda s: _policy_forms(s)[0])),
        ('nested-rules-take-other-keys',
         'the nested rules take only max_server_per_host '
         '(additionalProperties false)',
         _drop('additionalProperties',
               lambda s: _policy_forms(s)[0]['properties']['rules'])),
        ('nested-other-policy-takes-other-keys',
         'a policy other than anti-affinity takes only its name, no rules '
         '(additionalProperties false)',
         _drop('additionalProperties', lambda s: _policy_forms(s)[1])),
        ('nested-policy-any-name',
         'a policy without rules is named affinity, soft-anti-affinity or '
         'soft-affinity (the enum)',
         _drop('enum', lambda s: _policy_forms(s)[1]['properties']['name'])),
        ('nested-body-takes-other-keys',
         'the body takes only server_group (additionalProperties false)',
         _drop('additionalProperties', lambda s: s))):
    register(_name, 'nova', targets=(SEED_NESTED_POLICY,),
             profile='spec-reference', rule=_rule)(_loosening(_loosen))


@register(
    'server-group-create-forbidden-2-64', 'nova',
    targets=(SEED_NESTED_POLICY,),
    wrong_reason=True,
    rule='nova refuses every POST /os-server-groups at 2.64 and later '
         'with 403 (a policy refusal), whatever the policy\'s shape')
def server_group_create_forbidden():
    from nova.api.openstack import api_version_request
    from webob import exc

    def make(original):
        @functools.wraps(original)
        def forbidden(self, req, body):
            if api_version_request.is_supported(req, '2.64'):
                raise exc.HTTPForbidden(
                    explanation='Policy does not allow '
                                'os_compute_api:os-server-groups:create to '
                                'be performed.')
            return original(self, req, body=body)
        return forbidden

    _wrap_create(make)
