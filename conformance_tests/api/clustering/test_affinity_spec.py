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

"""Seed 002: the affinity policy's spec, validation and applicability."""

from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from conformance_tests.api.clustering import base
from conformance_tests.common import outcomes

CONF = base.CONF

RULE_DEFAULTS = ('senlin.policy.affinity-1.0 with its defaults (policies '
                 'anti-affinity, DRS off) is a valid spec')
RULE_DEFAULT_VALUES = ('a spec giving no servergroup policies and no '
                       'enable_drs_extension has policies anti-affinity '
                       'and DRS off: attach creates an anti-affinity group '
                       'and a scale-out\'s placements carry no zone')
RULE_VERSIONS = ('"Latest Version 1.0"; "Available Versions: 1.0 SUPPORTED '
                 '2016.10": the policy type\'s support_status (GET '
                 '/v1/policy-types/senlin.policy.affinity-1.0, API 1.5)')
# The seed's table of versions, as senlin's API gives it.
SUPPORT_STATUS = {'1.0': [{'status': 'SUPPORTED', 'since': '2016.10'}]}
RULE_REFUSED = ('a spec item outside the schema (unknown key, policies '
                'outside the four, non-boolean enable_drs_extension, '
                'unknown availability zone) is refused, naming the item')
RULE_PROFILE = ('the policy applies to os.nova.server-1.0 profiles only')
RULE_ONE = 'one affinity policy per cluster'
OTHER_TYPE = 'os.heat.stack'

# (what is wrong, property overrides, text the refusal must name)
BAD_SPECS = (
    ('unknown key', {'bogus': 1}, 'bogus'),
    ('policies outside the four',
     {'servergroup': {'policies': 'spread'}}, 'spread'),
    ('non-boolean enable_drs_extension',
     {'enable_drs_extension': 'maybe'}, 'maybe'),
)


class AffinitySpecTest(base.AffinityPolicyTest):

    def _accepted(self, path, spec):
        """The control of a refusal: the same request without the
        offending item is accepted."""
        status, body = self.clustering.submit_policy(
            path, spec, name=None if path.endswith('validate') else
            self.name('affinity'))
        if 200 <= status < 300 and path == 'v1/policies':
            self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                            self.clustering.delete_policy,
                            body['policy']['id'])
        self.assertTrue(200 <= status < 300, 'control for %s: POST %s of '
                        '%r answered %d: %s' % (RULE_REFUSED, path,
                                                spec['properties'], status,
                                                body))

    def _refused(self, path, spec, names, below=None):
        """The spec is refused (4xx, or below ``below`` when given)
        with a message naming ``names``."""
        # validate takes a spec only; create needs a name too
        status, body = self.clustering.submit_policy(
            path, spec, name=None if path.endswith('validate') else
            self.name('bad-affinity'))
        if 200 <= status < 300 and path == 'v1/policies':
            # never keep what should not have been made
            self.addCleanup(self.clustering.delete_policy,
                            body['policy']['id'])
        self.assertGreaterEqual(status, 400, '%s: POST %s accepted %r' % (
            RULE_REFUSED, path, spec['properties']))
        if below is not None:
            self.assertLess(status, below, '%s: POST %s of %r answered '
                            '%d' % (RULE_REFUSED, path, spec['properties'],
                                    status))
        self.assertIn(names, str(body), '%s: the refusal of %r does not '
                      'name %r: %s' % (RULE_REFUSED, spec['properties'],
                                       names, body))

    @decorators.idempotent_id('8b601b16-4013-4df4-975a-da8b7dfaafed')
    @decorators.attr(type=['slow'])
    def test_defaults_accepted(self):
        spec = base.affinity_spec()
        validated = outcomes.must_succeed(
            self, RULE_DEFAULTS, self.clustering.validate_policy, spec)
        self.assertEqual(base.AFFINITY_TYPE + '-1.0', validated['type'],
                         RULE_DEFAULTS)
        policy = self.policy(spec)
        self.assertEqual(base.AFFINITY_TYPE + '-1.0', policy['type'],
                         RULE_DEFAULTS)

        # The API echoes the spec as given; the default values show in
        # what the policy does: the group it creates, the placement it
        # writes.
        cluster = self.cluster(self.profile())
        data = self.attach(cluster, policy, RULE_DEFAULT_VALUES)
        group_id = data.get('servergroup_id')
        group = outcomes.must_succeed(
            self, RULE_DEFAULT_VALUES, self.groups.show_server_group,
            group_id)['server_group']
        self.assertEqual(['anti-affinity'], group['policies'],
                         '%s: spec %s made group %s' % (
                             RULE_DEFAULT_VALUES, spec['properties'], group))
        scale = self.act_on(RULE_DEFAULT_VALUES, 'CLUSTER_SCALE_OUT',
                            self.clustering.scale_out, cluster['id'], 1)
        self.assertEqual('SUCCEEDED', scale['status'], '%s: scale-out by 1 '
                         'with spec %s: CLUSTER_SCALE_OUT %s, status_reason: '
                         '%s; data %s' % (RULE_DEFAULT_VALUES,
                                          spec['properties'],
                                          scale['status'],
                                          scale.get('status_reason'),
                                          scale.get('data')))
        placement = (scale.get('data') or {}).get('placement')
        self.assertEqual({'count': 1,
                          'placements': [{'servergroup': group_id}]},
                         placement, '%s: spec %s, scale-out data %s' % (
                             RULE_DEFAULT_VALUES, spec['properties'],
                             scale.get('data')))
        self.servers_in_group(cluster, group_id, 1, RULE_DEFAULT_VALUES)

    @decorators.idempotent_id('3843fecb-74e9-4206-9e0d-953ef71ce310')
    def test_type_versions(self):
        name = base.AFFINITY_TYPE + '-1.0'
        policy_type = outcomes.must_succeed(
            self, RULE_VERSIONS, self.clustering.show_policy_type, name)
        self.assertEqual(SUPPORT_STATUS, policy_type.get('support_status'),
                         '%s: %s answers %s' % (
                             RULE_VERSIONS, name,
                             policy_type.get('support_status')))

    @decorators.idempotent_id('c8e81255-25ac-4cdc-a574-b6d3d388b589')
    def test_bad_items_refused(self):
        # A 5xx naming the item counts as a refusal (see the guideline's
        # header): senlin reports schema errors through its 500 path, so
        # no upper bound on the status (an HTTP status has none below 600
        # to check: that assertion could not fail).
        for path in ('v1/policies/validate', 'v1/policies'):
            self._accepted(path, base.affinity_spec())
            for what, props, names in BAD_SPECS:
                with self.subTest(path=path, what=what):
                    self._refused(path, base.affinity_spec(**props), names)

    @decorators.idempotent_id('731e64a3-39fd-41e5-9fb2-2b12f326af24')
    def test_unknown_zone_refused(self):
        zones = self.os_primary.availability_zone_client
        known = [z['zoneName'] for z in outcomes.must_succeed(
                 self, 'control for %s' % RULE_REFUSED,
                 zones.list_availability_zones)['availabilityZoneInfo']
                 if (z.get('zoneState') or {}).get('available')]
        self.assertTrue(known, 'control for %s: nova lists no available '
                        'zone' % RULE_REFUSED)
        self._accepted('v1/policies',
                       base.affinity_spec(availability_zone=known[0]))
        zone = self.name('no-such-zone')
        self._refused('v1/policies',
                      base.affinity_spec(availability_zone=zone), zone, 500)

    @decorators.idempotent_id('588d259c-e8e4-47da-b0ca-613fb740522e')
    def test_other_profile_type_refused(self):
        if not CONF.conformance.senlin_heat_profiles:
            raise self.skipException(
                'no cluster of another profile type can be built: set '
                '[conformance] senlin_heat_profiles = true where senlin '
                'can store os.heat.stack-1.0 profiles (heat runs)')
        # A template with no resources: the cluster has no nodes, so no
        # stack is ever made; senlin only previews it when storing it.
        profile = outcomes.must_succeed(
            self, '%s (senlin stores a %s profile: [conformance] '
            'senlin_heat_profiles is true)' % (RULE_PROFILE, OTHER_TYPE),
            self.clustering.create_profile, self.name('stack'), {
                'type': OTHER_TYPE, 'version': '1.0',
                'properties': {'template': {
                    'heat_template_version': '2016-04-08'}}})
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.clustering.delete_profile, profile['id'])
        cluster = self.cluster(profile)
        policy = self.policy(base.affinity_spec())
        # the control: the same policy attaches to a nova-server cluster
        self.attach(self.cluster(self.profile()), policy,
                    'control for %s' % RULE_PROFILE)
        action = self.try_attach(cluster, policy)
        self.assertEqual('FAILED', action['status'], '%s: attaching to a '
                         'cluster of %s-1.0 %s' % (
                             RULE_PROFILE, OTHER_TYPE, action['status']))
        self.assertIn(OTHER_TYPE, action['status_reason'] or '',
                      RULE_PROFILE)

    @decorators.idempotent_id('b46540ea-eea0-4182-8880-9dd13795032f')
    @decorators.attr(type=['slow'])
    def test_second_affinity_policy_refused(self):
        cluster = self.cluster(self.profile())
        first = self.policy(base.affinity_spec(
            servergroup={'name': self.name('group')}))
        self.attach(cluster, first, RULE_ONE)
        second = self.policy(base.affinity_spec(
            servergroup={'name': self.name('group')}))
        action = self.try_attach(cluster, second)
        self.assertEqual('FAILED', action['status'], '%s: a second affinity '
                         'policy attached: %s' % (RULE_ONE,
                                                  action['status']))
        # Whatever made the attach fail, the cluster holds the first
        # policy alone.
        bound = sorted(b['policy_id'] for b in outcomes.must_succeed(
            self, RULE_ONE, self.clustering.list_bindings, cluster['id']))
        self.assertEqual([first['id']], bound, '%s: bindings after the '
                         'second attach' % RULE_ONE)
