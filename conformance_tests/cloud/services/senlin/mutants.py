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

"""Mutants and spec references of senlin's affinity policy (seed 002).

Each mutant wraps one method of senlin 16's AffinityPolicy (or of the
nova client or node it drives) in senlin's process, at the narrowest
point that breaks exactly one rule of the spec, and leaves senlin's own
code to do the rest. Each reference is the smallest patch that makes
senlin do what the spec says where senlin 16 does not. All run before
senlin builds anything from these classes.
"""

import functools

from conformance_tests.cloud.mutants import reference
from conformance_tests.cloud.mutants import register

SERVICE = 'senlin'
CAP = 'clustering.affinity.'
# Senlin 16 never reads the profile's group (S1 is expected-fail on it)
# and its DRS lookup reads a hypervisor attribute openstacksdk has not had
# since 2016 (drs-zone is expected-fail): their mutants break those rules
# where they hold, on top of the spec references.
REFERENCE_PROFILE = 'spec-reference'
# S3's "No suitable vSphere host" is shown only where no hypervisor has
# "drs" in its hostname (cloud/profiles.py).
NO_DRS_PROFILE = 'no-drs-hypervisor'
NO_DRS_REFERENCE_PROFILE = 'spec-reference-no-drs-hypervisor'
S1_PROFILE = REFERENCE_PROFILE


def _policy_class():
    from senlin.policies import affinity_policy
    return affinity_policy.AffinityPolicy


def _wrap(name, make):
    """Replace AffinityPolicy.<name> by make(original)."""
    cls = _policy_class()
    original = getattr(cls, name)
    setattr(cls, name, functools.wraps(original)(make(original)))


def _after_pre_op(change):
    """Let senlin's pre_op run, then ``change(policy, action)`` what it
    wrote in the action's data (each change stores the action itself)."""
    def make(original):
        def pre_op(self, cluster_id, action):
            original(self, cluster_id, action)
            change(self, action)
        return pre_op
    _wrap('pre_op', make)


def _rewrite_placements(action, change):
    """Apply ``change`` to each placement entry pre_op wrote; store."""
    placement = action.data.get('placement')
    if placement:
        placement['placements'] = [change(dict(p))
                                   for p in placement['placements']]
        action.store(action.context)


def _drop_from_placements(action, key):
    """Each placement entry pre_op wrote, without ``key``; stored."""
    _rewrite_placements(action, lambda p: {k: v for k, v in p.items()
                                           if k != key})


def _profile_hints(profile):
    """The profile's scheduler_hints: a property, so under 'properties'
    of the spec (senlin 16 looks for them at the top of the spec, where
    they never are)."""
    return (profile.spec.get('properties') or {}).get('scheduler_hints')


def _profile_group_name(cluster):
    return (_profile_hints(cluster.rt['profile']) or {}).get('group')


def _nova_client_class():
    from senlin.drivers.os import nova_v2
    return nova_v2.NovaClient


def _wrap_nova(name, make):
    """Replace senlin's NovaClient.<name> by make(original)."""
    cls = _nova_client_class()
    original = getattr(cls, name)
    setattr(cls, name, functools.wraps(original)(make(original)))


def _with_spec(profile, spec, call):
    """Run call() with profile.spec replaced by spec, then restore."""
    kept = profile.spec
    profile.spec = spec
    try:
        return call()
    finally:
        profile.spec = kept


# -- spec validation ---------------------------------------------------------
@register('zone-unchecked', SERVICE,
          targets=(CAP + 'spec-refusals',),
          rule='an availability_zone nova does not know is refused')
def zone_unchecked():
    def make(original):
        def validate(self, context, validate_props=False):
            # the schema is still checked; the zone lookup is skipped
            return original(self, context, validate_props=False)
        return validate
    _wrap('validate', make)


# -- defaults ------------------------------------------------------------
def _property_schema(*path):
    item = _policy_class().properties_schema[path[0]]
    for key in path[1:]:
        item = item.schema[key]
    return item


@register('default-policies-affinity', SERVICE,
          targets=(CAP + 'spec-defaults',),
          rule='servergroup policies defaults to anti-affinity')
def default_policies_affinity():
    cls = _policy_class()
    _property_schema(cls.SERVER_GROUP, cls.GROUP_POLICIES).default = (
        cls.AFFINITY)


@register('type-version-experimental', SERVICE,
          targets=(CAP + 'spec-defaults',),
          rule='"Available Versions: 1.0 SUPPORTED 2016.10" (here the type '
               'says 1.0 is EXPERIMENTAL)')
def type_version_experimental():
    _policy_class().VERSIONS = {
        '1.0': [{'status': 'EXPERIMENTAL', 'since': '2016.10'}]}


@register('default-drs-on', SERVICE,
          targets=(CAP + 'spec-defaults',),
          rule='enable_drs_extension defaults to False')
def default_drs_on():
    _property_schema(_policy_class().ENABLE_DRS_EXTENSION).default = True


# -- S1 ------------------------------------------------------------------
@register('profile-group-ignored', SERVICE,
          targets=(CAP + 's1-inherit',),
          rule='S1: the group named in the profile\'s scheduler_hints is '
               'the one the policy binds',
          profile=S1_PROFILE)
def profile_group_ignored():
    def make(original):
        def attach(self, cluster, enabled=True):
            profile = cluster.rt['profile']
            spec = {k: v for k, v in profile.spec.items()
                    if k != 'scheduler_hints'}
            spec['properties'] = {
                k: v for k, v in (spec.get('properties') or {}).items()
                if k != 'scheduler_hints'}
            return _with_spec(profile, spec,
                              lambda: original(self, cluster, enabled))
        return attach
    _wrap('attach', make)


@register('inherited-group-placed-by-name', SERVICE,
          targets=(CAP + 's1-inherit',),
          rule='S1: a scale-out of a cluster that inherited its profile\'s '
               'group places its nodes in that group, by id (here by the '
               'name the profile gives)',
          profile=S1_PROFILE)
def inherited_group_placed_by_name():
    def change(policy, action):
        entity = getattr(action, 'entity', None)
        if not (getattr(entity, 'rt', None) or {}).get('profile'):
            return
        hinted = _profile_group_name(entity)
        if hinted:
            _rewrite_placements(action, lambda p: dict(p,
                                                       servergroup=hinted))
    _after_pre_op(change)


@register('inherited-group-deleted', SERVICE,
          targets=(CAP + 's1-inherit',),
          rule='S1: detaching leaves an inherited group in nova',
          profile=S1_PROFILE)
def inherited_group_deleted():
    def make(original):
        def extract(self, data):
            found = original(self, data)
            if found:
                found = dict(found, inherited_group=False)
            return found
        return extract
    _wrap('_extract_policy_data', make)


class _Agreeing(object):
    """A found group that reports the policy's own rules."""
    def __init__(self, group, policies):
        self._group, self.policies = group, policies

    def __getattr__(self, name):
        return getattr(self._group, name)


def _found_groups_agree(when):
    """Wrap the policy's attach so that, when ``when(policy)`` is true,
    every group its nova client finds reports the policy's own rules:
    senlin's comparison then never sees a mismatch."""
    def make(original):
        def attach(self, cluster, enabled=True):
            if not when(self):
                return original(self, cluster, enabled)
            wanted = (self.properties.get(self.SERVER_GROUP) or {}).get(
                self.GROUP_POLICIES)
            nova = self.nova

            def agreeing_nova(*args):
                client = nova(*args)
                find = client.server_group_find

                def found(*a, **kw):
                    group = find(*a, **kw)
                    return group and _Agreeing(group, [wanted])
                client.server_group_find = found
                return client
            self.nova = agreeing_nova
            try:
                return original(self, cluster, enabled)
            finally:
                del self.nova
        return attach
    _wrap('attach', make)


@register('mismatch-unchecked', SERVICE,
          targets=(CAP + 's1-mismatch',),
          rule='S1: a group whose rules differ from the policy\'s makes '
               'attach fail',
          profile=S1_PROFILE)
def mismatch_unchecked():
    _found_groups_agree(lambda policy: True)


@register('implied-mismatch-unchecked', SERVICE,
          targets=(CAP + 's1-mismatch',),
          rule='S1: a group whose rules differ from those the policy '
               'implies (no policies in its spec: anti-affinity) makes '
               'attach fail; only rules the spec names are compared',
          profile=S1_PROFILE)
def implied_mismatch_unchecked():
    def implied(policy):
        named = (policy.spec.get('properties') or {}).get(
            policy.SERVER_GROUP) or {}
        return policy.GROUP_POLICIES not in named
    _found_groups_agree(implied)


def _make_missing_hinted_group(policy, cluster):
    """Make the group the profile's scheduler_hints name, when the policy
    names none and nova has none of that name; return its name, or None
    when nothing was made."""
    group = policy.properties.get(policy.SERVER_GROUP) or {}
    hinted = _profile_group_name(cluster)
    if group.get(policy.GROUP_NAME) or not hinted:
        return None
    nova = policy.nova(cluster.user, cluster.project)
    if nova.server_group_find(hinted, True):
        return None
    nova.server_group_create(
        name=hinted,
        policies=[group.get(policy.GROUP_POLICIES) or 'anti-affinity'])
    return hinted


@register('missing-group-made', SERVICE,
          targets=(CAP + 's1-missing-group',),
          rule='S1: a group the profile names that does not exist makes '
               'attach fail (here attach makes it, then binds it)',
          profile=S1_PROFILE)
def missing_group_made():
    def make(original):
        def attach(self, cluster, enabled=True):
            _make_missing_hinted_group(self, cluster)
            return original(self, cluster, enabled)
        return attach
    _wrap('attach', make)


@register('missing-group-made-then-failed', SERVICE,
          targets=(CAP + 's1-missing-group',),
          rule='S1: a group the profile names that does not exist makes '
               'attach fail, and no group is made (here attach makes one '
               'of that name, then fails)',
          profile=S1_PROFILE)
def missing_group_made_then_failed():
    def make(original):
        def attach(self, cluster, enabled=True):
            made = _make_missing_hinted_group(self, cluster)
            if made:
                # fails as the spec says, naming the group, but leaves one
                # of that name behind
                return False, ("Server group '%s' named by the profile's "
                               "scheduler_hints does not exist." % made)
            return original(self, cluster, enabled)
        return attach
    _wrap('attach', make)


# -- S1, wrong causes (default profile) --------------------------------------
# S1 is expected-fail because senlin 16 never reads the profile's group.
# These fail the S1 tests for other causes; the signatures must not take
# them for senlin 16's.
@register('attach-refused', SERVICE,
          targets=(CAP + 's1-inherit', CAP + 's1-mismatch'),
          rule='senlin refuses every affinity policy attach, whatever the '
               'profile names',
          wrong_reason=True)
def attach_refused():
    def make(original):
        def attach(self, cluster, enabled=True):
            return False, 'attach refused (mutant attach-refused)'
        return attach
    _wrap('attach', make)


@register('hint-read-found-group-broken', SERVICE,
          targets=(CAP + 's1-missing-group', CAP + 's1-inherit',
                   CAP + 's1-mismatch'),
          rule='senlin reads the profile\'s group (profile-hints-read) but '
               'not the found group\'s policy field nor the spec\'s error '
               'for a missing one: a found group breaks attach (TypeError), '
               'a missing one is made under the name the profile gives',
          wrong_reason=True)
def hint_read_found_group_broken():
    # profile-hints-read alone, on the default profile: what a senlin
    # that fixed only the hint's location would do on today's SDK.
    profile_hints_read()


# -- applicability -----------------------------------------------------------
@register('profile-type-unchecked', SERVICE,
          targets=(CAP + 'profile-type',),
          rule='"Applicable Profile Types: os.nova.server-1.0": attaching to '
               'a cluster of another profile type fails')
def profile_type_unchecked():
    # senlin's generic check (Policy.attach) reads the policy's
    # PROFILE_TYPE; 'ANY' is what policies for every type declare.
    _policy_class().PROFILE_TYPE = ['ANY']


# -- S2 ------------------------------------------------------------------
@register('created-group-kept', SERVICE,
          targets=(CAP + 's2-create', CAP + 'cli'),
          rule='S2: detaching deletes the group the policy created')
def created_group_kept():
    def make(original):
        def extract(self, data):
            found = original(self, data)
            if found:
                found = dict(found, inherited_group=True)
            return found
        return extract
    _wrap('_extract_policy_data', make)


@register('created-group-named-randomly', SERVICE,
          targets=(CAP + 's2-create',),
          rule='S2: the group attach creates is named by the policy\'s '
               'servergroup.name (here senlin names it server_group_<random> '
               'whatever the policy says)')
def created_group_named_randomly():
    def make(original):
        def server_group_create(self, **attrs):
            attrs['name'] = 'server_group_renamed'
            return original(self, **attrs)
        return server_group_create
    _wrap_nova('server_group_create', make)


@register('binding-version-dropped', SERVICE,
          targets=(CAP + 's2-create',),
          rule="S2: the binding data carries 'version': 1.0 (here it is "
               "stored without it)")
def binding_version_dropped():
    def make(original):
        def build(self, data):
            built = original(self, data)
            for entry in built.values():
                if isinstance(entry, dict):
                    entry.pop('version', None)
            return built
        return build
    _wrap('_build_policy_data', make)


# -- the client (clustering.affinity.cli-client) ----------------------------
# python-senlinclient 3.1 cannot print a policy on osc-lib >= 4 (the
# capability is expected-fail); its spec reference is applied in the
# `openstack` process (client_reference.py). The mutants are senlin's:
# the registry patches the cloud's processes, not the client's.
@register('policy-spec-shown-altered', SERVICE,
          targets=(CAP + 'cli-client',),
          rule='`openstack cluster policy create --spec-file F` and `show` '
               'print the policy made from F (here senlin answers every '
               'policy read with its servergroup\'s name left out)',
          profile=REFERENCE_PROFILE)
def policy_spec_shown_altered():
    # senlin's policy reads (GET /v1/policies/{id}, what the client's
    # create and show print) answer the stored object's to_dict
    from senlin.objects import policy as base

    original = base.Policy.to_dict

    @functools.wraps(original)
    def to_dict(self):
        shown = original(self)
        spec = shown.get('spec') or {}
        group = (spec.get('properties') or {}).get('servergroup')
        if isinstance(group, dict) and 'name' in group:
            properties = dict(spec['properties'], servergroup={
                k: v for k, v in group.items() if k != 'name'})
            shown['spec'] = dict(spec, properties=properties)
        return shown
    base.Policy.to_dict = to_dict


@register('policy-create-refused', SERVICE,
          targets=(CAP + 'cli-client',),
          rule='senlin refuses every affinity policy it is asked to create '
               '(the client exits 1 on the cloud\'s refusal, not on its '
               'own formatters)',
          wrong_reason=True)
def policy_create_refused():
    def make(original):
        def validate(self, context, validate_props=False):
            from senlin.common import exception
            raise exception.InvalidSpec(
                message='affinity policy refused (mutant '
                        'policy-create-refused)')
        return validate
    _wrap('validate', make)


@register('hinted-group-inherited', SERVICE,
          targets=(CAP + 's2-create',),
          rule='S2: "if ... there is no group value specified in the '
               'scheduler_hints property, the engine will create a new '
               'server group" recorded with inherited_group False (here any '
               'scheduler_hints make the created group count as inherited, '
               'so detach keeps it)')
def hinted_group_inherited():
    def make(original):
        def attach(self, cluster, enabled=True):
            done, data = original(self, cluster, enabled)
            if done and _profile_hints(cluster.rt['profile']):
                found = dict(self._extract_policy_data(data),
                             inherited_group=True)
                data = self._build_policy_data(found)
            return done, data
        return attach
    _wrap('attach', make)


@register('affinity-not-singleton', SERVICE,
          targets=(CAP + 'one-per-cluster',),
          rule='one affinity policy per cluster: a second attach fails (here '
               'the affinity policy is not a singleton, so senlin\'s engine '
               'attaches a second one)')
def affinity_not_singleton():
    def make(original):
        def __init__(self, *args, **kwargs):
            original(self, *args, **kwargs)
            self.singleton = False
        return __init__
    _wrap('__init__', make)


# -- placement data ----------------------------------------------------------
@register('placement-no-group', SERVICE,
          targets=(CAP + 'placement-data', CAP + 'members-and-zone'),
          rule='every placement names the bound server group')
def placement_no_group():
    _after_pre_op(lambda policy, action: _drop_from_placements(
        action, 'servergroup'))


@register('scale-out-never-resumed', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='a scale-out the policy places ends SUCCEEDED (here the '
               'engine never resumes it once its node creations end, as '
               "Debian's senlin 14 sometimes does: it stays WAITING with "
               'its cluster locked, and only a force cancel frees it)')
def scale_out_never_resumed():
    from senlin.common import consts
    from senlin.objects import action as action_obj
    from senlin.objects import dependency

    original = action_obj.Action.mark_succeeded

    def mark_succeeded(cls, context, action_id, timestamp):
        parents = dependency.Dependency.get_dependents(context, action_id)
        if not any(action_obj.Action.get(context, parent,
                                         project_safe=False).action ==
                   consts.CLUSTER_SCALE_OUT for parent in parents):
            return original(context, action_id, timestamp)
        # The node creation ends, but its dependency row stays: the
        # scale-out waiting on it is never made READY.
        action_obj.Action.update(context, action_id, {
            'owner': None, 'status': consts.ACTION_SUCCEEDED,
            'status_reason': 'Action completed successfully.',
            'end_time': timestamp})
    action_obj.Action.mark_succeeded = classmethod(mark_succeeded)


@register('zero-count-scales-by-default', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='"After validating the count value": a scale-out by 0 is '
               'refused (here senlin drops a count of 0 and scales out by '
               'its default, 1, as a truthiness test would)')
def zero_count_scales_by_default():
    from senlin.conductor import service

    original = service.ConductorService.cluster_scale_out

    def cluster_scale_out(self, ctx, req):
        # req is the RPC primitive of ClusterScaleOutRequest (the
        # conductor's request_context makes the object from it)
        data = req.get('senlin_object.data') or {}
        if data.get('count') == 0:
            del data['count']
        return original(self, ctx, req)
    service.ConductorService.cluster_scale_out = cluster_scale_out


@register('placement-count-one', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='placement count is the number of nodes to create')
def placement_count_one():
    def change(policy, action):
        placement = action.data.get('placement')
        if placement:
            placement['count'] = 1
            action.store(action.context)
    _after_pre_op(change)


@register('other-policy-count-ignored', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='"Senlin engine respects outputs (i.e. number of nodes to '
               'create) from other policies" (here the affinity policy '
               'reads only the action\'s own count)')
def other_policy_count_ignored():
    def make(original):
        def pre_op(self, cluster_id, action):
            if action.action != 'CLUSTER_SCALE_OUT':
                return original(self, cluster_id, action)
            creation = action.data.pop('creation', None)
            try:
                original(self, cluster_id, action)
            finally:
                if creation is not None:
                    action.data['creation'] = creation
            action.store(action.context)
        return pre_op
    _wrap('pre_op', make)


@register('shrink-blocked', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='a CLUSTER_RESIZE that removes nodes is not blocked')
def shrink_blocked():
    def change(policy, action):
        from senlin.policies import base
        if (action.action == 'CLUSTER_RESIZE' and
                'placement' not in action.data):
            action.data['status'] = base.CHECK_ERROR
            action.data['status_reason'] = 'affinity: no new nodes'
            action.store(action.context)
    _after_pre_op(change)


@register('zone-dropped', SERVICE,
          targets=(CAP + 'members-and-zone',),
          rule='availability_zone set: every placement carries it')
def zone_dropped():
    def change(policy, action):
        if not policy.enable_drs:
            _drop_from_placements(action, 'zone')
    _after_pre_op(change)


@register('extra-node-active', SERVICE,
          targets=(CAP + 'members-and-zone',),
          rule='with anti-affinity a node more than there are hosts fails '
               '(here a node whose server nova refused is recorded ACTIVE)')
def extra_node_active():
    from senlin.common import consts
    from senlin.engine import node

    def make(original):
        def do_create(self, context):
            done, reason = original(self, context)
            if not done and self.status == consts.NS_ERROR:
                self.set_status(context, consts.NS_ACTIVE,
                                'Creation succeeded',
                                physical_id=self.physical_id)
                return True, None
            return done, reason
        return do_create
    original = node.Node.do_create
    node.Node.do_create = functools.wraps(original)(make(original))


@register('node-server-not-active', SERVICE,
          targets=(CAP + 'placement-data', CAP + 'members-and-zone'),
          rule='a scale-out that ends SUCCEEDED leaves its nodes ACTIVE '
               'with their servers ACTIVE (here senlin stops each server '
               'it has built and still records its node ACTIVE)')
def node_server_not_active():
    from senlin.common import consts

    def make(original):
        def wait_for_server(self, server, status=consts.VS_ACTIVE, *args,
                            **kwargs):
            original(self, server, status, *args, **kwargs)
            if status == consts.VS_ACTIVE:
                # Waited for, so the test meets the server SHUTOFF, never
                # ACTIVE on its way there.
                self.server_stop(server)
                original(self, server, consts.VS_SHUTOFF)
        return wait_for_server
    _wrap_nova('wait_for_server', make)


@register('binding-show-500', SERVICE,
          targets=(CAP + 's2-create',),
          rule='S2: the binding of an attached policy shows the group attach '
               'created (GET /v1/clusters/{id}/policies/{policy_id}; here '
               'every such read answers 500)')
def binding_show_500():
    # A read the rule depends on, refused: the test fails by the rule's
    # assertion (outcomes.must_succeed), not by an escaping ServerFault.
    # The tests' cleanup lists bindings, which still answer.
    from senlin.api.openstack.v1 import cluster_policies

    def get(self, req, cluster_id, policy_id):
        raise RuntimeError('conformance mutant binding-show-500')
    cluster_policies.ClusterPolicyController.get = get


@register('drs-zone-no-az', SERVICE,
          targets=(CAP + 'drs-zone',),
          rule='DRS: the zone is "<availability_zone or nova>:<host>"',
          profile=REFERENCE_PROFILE)
def drs_zone_no_az():
    _rewrite_drs_zone(lambda zone: zone.split(':', 1)[-1])


@register('drs-zone-az-ignored', SERVICE,
          targets=(CAP + 'drs-zone',),
          rule='DRS: "it will use \'nova\' as the default value if not '
               'specified": a given availability_zone is the zone\'s first '
               'part (here always "nova:<host>")',
          profile=REFERENCE_PROFILE)
def drs_zone_az_ignored():
    _rewrite_drs_zone(lambda zone: 'nova:' + zone.split(':', 1)[-1])


def _rewrite_drs_zone(rewrite):
    """With the DRS extension on, each placement's zone rewritten."""
    def change(policy, action):
        if policy.enable_drs:
            _rewrite_placements(action, lambda p: dict(
                p, zone=rewrite(p['zone'])) if 'zone' in p else p)
    _after_pre_op(change)


@register('drs-last-match', SERVICE,
          targets=(CAP + 'drs-zone',),
          rule='DRS: "The affinity uses the first matching hypervisor as '
               'the target host" (here the last: senlin reads nova\'s list '
               'reversed)',
          profile=REFERENCE_PROFILE)
def drs_last_match():
    # Wraps the list the drs-hypervisor-hostname-read reference has
    # already wrapped (references are applied first); with the
    # spec-reference profile's two DRS hosts the last is another host.
    def make(original):
        def hypervisor_list(self, **query):
            return list(reversed(list(original(self, **query))))
        return hypervisor_list
    _wrap_nova('hypervisor_list', make)


@register('drs-hypervisors-hidden', SERVICE,
          targets=(CAP + 'drs-zone',),
          rule='senlin sees no hypervisor at all, so no DRS host ("No '
               'suitable vSphere host is available.")',
          wrong_reason=True)
def drs_hypervisors_hidden():
    # A wrong cause for drs-zone on the default profile: the policy check
    # fails before senlin reads any hypervisor's attribute.
    def make(original):
        def hypervisor_list(self, **query):
            return []
        return hypervisor_list
    _wrap_nova('hypervisor_list', make)


@register('drs-none-check-passed', SERVICE,
          targets=(CAP + 'drs-none',),
          rule='DRS with no hypervisor whose hostname contains drs: "the '
               'policy check fails" (here it passes, placing anywhere)',
          profile=NO_DRS_REFERENCE_PROFILE)
def drs_none_check_passed():
    def change(policy, action):
        if policy.enable_drs and action.data.get('status') == 'ERROR':
            action.data['status'] = 'OK'
            action.data.pop('status_reason', None)
            action.store(action.context)
    _after_pre_op(change)


@register('drs-hypervisor-list-refused', SERVICE,
          targets=(CAP + 'drs-none',),
          rule='nova refuses senlin the hypervisor list, so the DRS '
               'scale-out fails before any hypervisor is read',
          profile=NO_DRS_PROFILE, wrong_reason=True)
def drs_hypervisor_list_refused():
    # A wrong cause for drs-none on upstream senlin: the scale-out fails,
    # but not for want of the hypervisor_hostname attribute.
    def make(original):
        def hypervisor_list(self, **query):
            from senlin.common import exception
            raise exception.InternalError(
                code=403, message='hypervisor list refused (mutant)')
        return hypervisor_list
    _wrap_nova('hypervisor_list', make)


# -- spec references ----------------------------------------------------
@reference('profile-hints-read', SERVICE,
           capabilities=(CAP + 's1-inherit', CAP + 's1-mismatch'),
           rule='S1: "if the profile contains scheduler_hints property ... '
                'the engine will use the value of the group key as a Nova '
                'server group name"')
def profile_hints_read():
    """senlin 16 looks for scheduler_hints at the top of the profile's
    spec; they are a property. Show senlin's own attach the property where
    it looks, for the duration of the call."""
    def make(original):
        def attach(self, cluster, enabled=True):
            profile = cluster.rt['profile']
            hints = _profile_hints(profile)
            if not hints or 'scheduler_hints' in profile.spec:
                return original(self, cluster, enabled)
            return _with_spec(profile, dict(profile.spec,
                                            scheduler_hints=hints),
                              lambda: original(self, cluster, enabled))
        return attach
    _wrap('attach', make)


@reference('missing-profile-group-refused', SERVICE,
           capabilities=(CAP + 's1-missing-group',),
           rule='S1: "If the group doesn\'t exist ... you will get an error '
                'when attaching the policy to the cluster."')
def missing_profile_group_refused():
    """Before senlin's attach: a group named by the profile (the policy
    naming none) must exist, else attach fails; senlin 16 would create
    it."""
    def make(original):
        def attach(self, cluster, enabled=True):
            named = (self.properties.get(self.SERVER_GROUP) or {}).get(
                self.GROUP_NAME)
            hinted = _profile_group_name(cluster)
            if not named and hinted:
                nova = self.nova(cluster.user, cluster.project)
                if not nova.server_group_find(hinted, True):
                    return False, ("Server group '%s' named by the "
                                   "profile's scheduler_hints does not "
                                   "exist." % hinted)
            return original(self, cluster, enabled)
        return attach
    _wrap('attach', make)


@reference('found-group-policy-read', SERVICE,
           capabilities=(CAP + 's1-inherit', CAP + 's1-mismatch'),
           rule='S1: "the affinity policy will check if the specified server '
                'group does exist ... the rules specified in the group" '
                'match the policy\'s')
def found_group_policy_read():
    """senlin 16 compares ``group.policies[0]`` of the group it finds;
    openstacksdk has read server groups at microversion 2.64 since 0.31
    (2019), where nova gives ``policy`` (one string) and no ``policies``,
    so every found group breaks that line (TypeError). Give senlin's
    driver's found group its policy as ``policies``, as nova answered
    before 2.64.

    The policy's name is read whatever the shape of 2.64's ``policy``:
    a string as nova merged it, or ``{name, rules}`` as seed 000's text
    has it (nova's ``server-group-nested-policy`` reference, applied in
    the same spec-reference profile)."""
    def make(original):
        def server_group_find(self, name_or_id, ignore_missing=True):
            group = original(self, name_or_id, ignore_missing)
            if group is not None and not group.policies and group.policy:
                policy = group.policy
                if isinstance(policy, dict):
                    policy = policy.get('name')
                group.policies = [policy]
            return group
        return server_group_find
    _wrap_nova('server_group_find', make)


class _Forwarding(object):
    """An object as senlin sees it: the wrapped one, with only what a
    subclass defines changed."""

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def __getattr__(self, name):
        return getattr(self._wrapped, name)


class _NamedHypervisor(_Forwarding):
    """A hypervisor as senlin's DRS lookup reads it: openstacksdk's
    Hypervisor, with the API's hypervisor_hostname (the SDK's ``name``)
    under the API's own name."""

    def __init__(self, hypervisor):
        super().__init__(hypervisor)
        self.hypervisor_hostname = hypervisor.name


@reference('drs-hypervisor-hostname-read', SERVICE,
           capabilities=(CAP + 'drs-zone', CAP + 'drs-none'),
           rule='S3: "It does so by looking into the hypervisor_hostname '
                'property of each hypervisor reported by Nova"')
def drs_hypervisor_hostname_read():
    """senlin's pre_op (senlin 6 to 16) reads
    ``hypervisor.hypervisor_hostname`` of each hypervisor openstacksdk
    lists; openstacksdk has given that API field as ``name`` only since
    0.9.0 (2016), so the read raises AttributeError. Hand senlin's DRS
    lookup hypervisors that carry the field under the API's name."""
    def make(original):
        def hypervisor_list(self, **query):
            return [_NamedHypervisor(h) for h in original(self, **query)]
        return hypervisor_list
    _wrap_nova('hypervisor_list', make)


class _DrsPatternAsWritten(_Forwarding):
    """The ``re`` module as senlin's affinity_policy sees it, with its
    one DRS pattern compiled as the seed words it: ``.*drs*`` (``dr``
    then any number of ``s``) matches any hostname containing ``dr``;
    ``.*drs`` matched from the start is "contains drs"."""

    UPSTREAM = r'.*drs*'
    CONTAINS_DRS = r'.*drs'

    def compile(self, pattern, flags=0):
        if pattern == self.UPSTREAM:
            pattern = self.CONTAINS_DRS
        return self._wrapped.compile(pattern, flags)


@reference('drs-hostname-contains-drs', SERVICE,
           capabilities=(CAP + 'drs-zone', CAP + 'drs-none'),
           rule='S3: "The policy attempts to find a hypervisor whose host '
                'name contains drs"')
def drs_hostname_contains_drs():
    """senlin's pre_op (senlin 6 to 16) matches each hypervisor hostname
    against ``re.compile(r'.*drs*', re.I)``, which a hostname containing
    "dr" and no "drs" also matches (compute-dr-1 of the no-DRS clouds).
    Compile that one pattern as ``.*drs``."""
    from senlin.policies import affinity_policy
    affinity_policy.re = _DrsPatternAsWritten(affinity_policy.re)


@register('drs-pattern-matches-dr', SERVICE,
          targets=(CAP + 'drs-none',),
          rule='S3: a hypervisor whose hostname contains "dr" but not '
               '"drs" is not a DRS host (here senlin\'s own .*drs*, which '
               'takes it, is back)',
          profile=NO_DRS_REFERENCE_PROFILE)
def drs_pattern_matches_dr():
    # The drs-hostname-contains-drs reference undone (references are
    # applied before the mutant): the stdlib's re, upstream's pattern.
    import re
    from senlin.policies import affinity_policy
    affinity_policy.re = re


def _node_action_class():
    from senlin.engine.actions import node_action
    return node_action.NodeAction


@reference('node-create-placed', SERVICE,
           capabilities=(CAP + 'node-create-placed',),
           rule='NODE_CREATE: "The policy is capable of processing the node '
                'associated with this action"')
def node_create_placed():
    """senlin 16's NodeAction.do_create never reads the placement the
    policy's pre_op wrote in the action's data (only cluster actions copy
    a placement into each new node's data). Give the node that placement
    before senlin creates it, as a scale-out gives each of its nodes one."""
    cls = _node_action_class()
    original = cls.do_create

    def do_create(self):
        placements = (self.data.get('placement') or {}).get('placements')
        if placements:
            self.entity.data = dict(self.entity.data or {},
                                    placement=dict(placements[0]))
        return original(self)
    cls.do_create = functools.wraps(original)(do_create)


@register('node-create-group-dropped', SERVICE,
          targets=(CAP + 'node-create-placed',),
          rule='NODE_CREATE\'s node is placed in the policy\'s group (here '
               'the node gets the placement without its servergroup)',
          profile=REFERENCE_PROFILE)
def node_create_group_dropped():
    def change(policy, action):
        if getattr(action, 'action', None) == 'NODE_CREATE':
            _drop_from_placements(action, 'servergroup')
    _after_pre_op(change)


@register('node-create-placed-hint-dropped', SERVICE,
          targets=(CAP + 'node-create-placed',),
          rule='a senlin that gives NODE_CREATE\'s node its placement '
               '(node-create-placed) but drops the group from the server '
               'it asks nova for: the server is outside the group for '
               'another cause than senlin 16\'s',
          wrong_reason=True)
def node_create_placed_hint_dropped():
    node_create_placed()

    def make(original):
        def server_create(self, **attrs):
            hints = dict(attrs.get('scheduler_hints') or {})
            hints.pop('group', None)
            attrs['scheduler_hints'] = hints
            return original(self, **attrs)
        return server_create
    _wrap_nova('server_create', make)
