"""Mutants and spec references of senlin's affinity policy (seed 002).

Each mutant wraps one method of senlin 16's AffinityPolicy in senlin's
process, at the narrowest point that breaks exactly one rule of the
spec, and leaves senlin's own code to do the rest. Each reference is the
smallest patch that makes senlin do what the spec says where senlin 16
does not. All run before senlin builds anything from these classes.
"""

import functools

from conformance_tests.cloud.mutants import reference
from conformance_tests.cloud.mutants import register

SERVICE = 'senlin'
CAP = 'clustering.affinity.'
# Senlin 16 never reads the profile's group (S1 is expected-fail on it):
# the S1 mutants break S1 where it holds, on top of the spec references.
S1_PROFILE = 'spec-reference'


def _policy_class():
    from senlin.policies import affinity_policy
    return affinity_policy.AffinityPolicy


def _wrap(name, make):
    """Replace AffinityPolicy.<name> by make(original)."""
    cls = _policy_class()
    original = getattr(cls, name)
    setattr(cls, name, functools.wraps(original)(make(original)))


def _rewrite_placements(action, change):
    """Apply ``change`` to each placement entry pre_op wrote; store."""
    placement = action.data.get('placement')
    if placement:
        placement['placements'] = [change(dict(p))
                                   for p in placement['placements']]
        action.store(action.context)


def _profile_hints(profile):
    """The profile's scheduler_hints: a property, so under 'properties'
    of the spec (senlin 16 looks for them at the top of the spec, where
    they never are)."""
    return (profile.spec.get('properties') or {}).get('scheduler_hints')


def _profile_group_name(cluster):
    return (_profile_hints(cluster.rt['profile']) or {}).get('group')


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


@register('mismatch-unchecked', SERVICE,
          targets=(CAP + 's1-mismatch',),
          rule='S1: a group whose rules differ from the policy\'s makes '
               'attach fail',
          profile=S1_PROFILE)
def mismatch_unchecked():
    class _Agreeing(object):
        """A found group that reports the policy's own rules."""
        def __init__(self, group, policies):
            self._group, self.policies = group, policies

        def __getattr__(self, name):
            return getattr(self._group, name)

    def make(original):
        def attach(self, cluster, enabled=True):
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


# -- placement data ----------------------------------------------------------
@register('placement-no-group', SERVICE,
          targets=(CAP + 'placement-data', CAP + 'members-and-zone'),
          rule='every placement names the bound server group')
def placement_no_group():
    def make(original):
        def pre_op(self, cluster_id, action):
            original(self, cluster_id, action)
            _rewrite_placements(action, lambda p: {
                k: v for k, v in p.items() if k != 'servergroup'})
        return pre_op
    _wrap('pre_op', make)


@register('placement-count-one', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='placement count is the number of nodes to create')
def placement_count_one():
    def make(original):
        def pre_op(self, cluster_id, action):
            original(self, cluster_id, action)
            placement = action.data.get('placement')
            if placement:
                placement['count'] = 1
                action.store(action.context)
        return pre_op
    _wrap('pre_op', make)


@register('shrink-blocked', SERVICE,
          targets=(CAP + 'placement-data',),
          rule='a CLUSTER_RESIZE that removes nodes is not blocked')
def shrink_blocked():
    def make(original):
        def pre_op(self, cluster_id, action):
            original(self, cluster_id, action)
            from senlin.policies import base
            if (action.action == 'CLUSTER_RESIZE' and
                    'placement' not in action.data):
                action.data['status'] = base.CHECK_ERROR
                action.data['status_reason'] = 'affinity: no new nodes'
                action.store(action.context)
        return pre_op
    _wrap('pre_op', make)


@register('zone-dropped', SERVICE,
          targets=(CAP + 'members-and-zone',),
          rule='availability_zone set: every placement carries it')
def zone_dropped():
    def make(original):
        def pre_op(self, cluster_id, action):
            original(self, cluster_id, action)
            if not self.enable_drs:
                _rewrite_placements(action, lambda p: {
                    k: v for k, v in p.items() if k != 'zone'})
        return pre_op
    _wrap('pre_op', make)


@register('drs-zone-no-az', SERVICE,
          targets=(CAP + 'drs-zone',),
          rule='DRS: the zone is "<availability_zone or nova>:<host>"')
def drs_zone_no_az():
    def make(original):
        def pre_op(self, cluster_id, action):
            original(self, cluster_id, action)
            if self.enable_drs:
                _rewrite_placements(action, lambda p: dict(
                    p, zone=p['zone'].split(':', 1)[-1]) if 'zone' in p
                    else p)
        return pre_op
    _wrap('pre_op', make)


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
