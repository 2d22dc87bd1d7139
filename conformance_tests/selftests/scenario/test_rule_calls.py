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

"""Every call a rule governs goes through common/outcomes (issue 46,
section 1): in a converted test module, a call that changes the cloud
(create_*, update_*, delete_*, boots, senlin's and blazar's actions) is
either handed to outcomes.must_succeed / must_be_refused, which turn any
answer into the rule's assertion, or is a set-up call listed below with
the reason no rule governs it. A new mutating call outside both fails
here, before a cloud's refusal of it can surface as an error.

Every test module is walked (MODULE_GLOBS): a new module is held to
this from its first line.

A mutating call handed to Tempest's call_and_ignore_notfound_exc counts
as a call: that helper retries a 500 three times and takes the 404 that
may follow as success, so it is fit for cleanup only (IGNORING_CLEANUP
lists where, and why), never for a call a rule needs.

Reads are held the same way (issue 60): a show_* or list_* whose answer
a rule judges goes through must_succeed (or found_or_none, where a 404
means "gone"), so a 5xx of the read is the rule's failed assertion, not
an error; a read that only cleans up or checks the configuration is
listed with its reason. (The raw compute client is not walked: its get
is an assertion of a 200 itself, and its call returns every status for
the test to judge.) So are the lifecycle calls of a senlin action
(its wait, its release, a policy's validation) and nova's aggregate and
flavor set-up calls, which no prefix names.
"""

import ast
import glob
import os

import fixtures
import testtools

from conformance_tests.common import paths

# Every test module: scenario/*.py and api/<service>/*.py.
MODULE_GLOBS = ('scenario/*.py', 'api/*/*.py')

MUTATING_PREFIXES = ('create_', 'update_', 'delete_')
# (The module's own helpers that hand their call to outcomes, such as
# set_project_quota or boot_within_quota, are checked inside.)
MUTATING_NAMES = {
    'boot', 'scale_out', 'resize', 'attach_policy', 'detach_policy',
    # a senlin action's and a policy spec's lifecycle
    'wait_for_action', 'release_cluster', 'force_cancel_action',
    'cluster_action', 'validate_policy', 'submit_policy',
    # nova's aggregates and flavors
    'add_host', 'remove_host', 'set_flavor_extra_spec'}
READ_PREFIXES = ('show_', 'list_')

# (module, enclosing function, called name): why no rule governs it.
_QUOTA = 'scenario/test_quota_from_placement.py'
_PREEMPTIBLE = 'scenario/test_preemptible_instances.py'
_LEASES = 'api/reservation/test_leases_api.py'
_CLUSTERING = 'api/clustering/base.py'
_SCENARIO = 'scenario/base.py'
_SPREAD = 'scenario/test_server_group_spread.py'
ALLOWED = {
    (_QUOTA, '_second_user', 'create_user'): (
        'set-up: user B of the project, made by the admin; keystone is '
        'no seed-001 rule'),
    (_QUOTA, '_second_user', 'create_user_role_on_project'): (
        'set-up: user B\'s member role, as above'),
    (_QUOTA, '_unschedulable_flavor', 'create_flavor'): (
        'set-up: the admin\'s flavor no host holds; a refusal is the '
        'admin\'s error, not a quota rule'),
    (_QUOTA, '_boot_as_member', 'create_server_group'): (
        'set-up: the anti-affinity group whose overflow is the member\'s '
        'unscheduled server; its rules are seed 000\'s'),
    (_PREEMPTIBLE, '_flavor', 'create_flavor'): (
        'set-up: the admin\'s preemptible and regular flavors (and the '
        'freepool fillers\'); flavors are no seed-004 rule'),
    (_LEASES, 'submit', 'create_lease'): (
        'its callers judge the answer: create() hands submit to '
        'must_succeed, the date refusals to must_be_refused, and the '
        'bad-reservations test asserts any 4xx itself'),
    (_CLUSTERING, '_delete_cluster', 'delete_cluster_and_wait'): (
        'cleanup: it raises with senlin\'s answer when the cluster cannot '
        'go; no rule is about the deletion'),
    (_CLUSTERING, '_detach_if_bound', 'detach_policy'): (
        'cleanup: undoes an attach the test may not have expected; it '
        'raises with the action\'s end when the detach fails'),
    ('api/clustering/test_affinity_placement.py',
     'test_drs_zone_with_availability_zone', 'create_aggregate'): (
        'set-up: the admin\'s aggregate that makes the availability zone '
        'DRS names; a refusal is the admin\'s error, not the policy\'s'),
    ('api/compute/base.py', 'cleanup_prefixed', 'delete_matching'): (
        'cleanup: the run\'s server groups, by prefix'),
    (_SCENARIO, 'boot', 'create_server'): (
        'the raw boot every helper builds on: a rule hands it to '
        'outcomes (boot_accepted, must_be_refused) or judges the answer '
        'itself, as the concurrent-boots test does'),
    (_SCENARIO, 'delete_servers_named', 'delete_server'): (
        'cleanup: servers a boot without an answer may have made'),
    (_SCENARIO, 'delete_server', 'delete_server'): (
        'the removal every cleanup uses; a rule about a deletion hands '
        'delete_server to must_succeed'),
    (_SPREAD, '_delete_groups_named', 'delete_matching'): (
        'cleanup: the groups a POST without an answer may have made'),
    (_SPREAD, 'boot', 'boot'): (
        'the concurrent boots\' threads: each answer is collected and '
        'judged in the test (a refusal is a failed assertion naming the '
        'rule, no answer an error of the run)'),
}

# Wrappers that call the callable they are given; a governed callable
# handed to one is a call of it (waiters.gone reads, and takes a 404 as
# its answer, but lets a 5xx escape).
CALLING_WRAPPERS = {'call_and_ignore_notfound_exc', 'gone'}
_CLI_AFFINITY = 'api/clustering/test_affinity_cli.py'
_LEASE_CLI = 'api/reservation/test_lease_cli.py'
ALLOWED.update({
    (_CLI_AFFINITY, '_delete_policies_named', 'delete_policy'): (
        'cleanup: the policies a command that failed may have made'),
    ('api/clustering/test_affinity_groups.py', '_forget_group',
     'delete_server_group'): (
        'cleanup: the group senlin made, already gone if senlin removed it'),
    (_LEASE_CLI, 'delete_leases_named', 'delete_lease'): (
        'cleanup: the leases a command that failed may have made'),
    (_LEASES, 'delete_leases_named', 'delete_lease'): (
        'cleanup: the leases a POST without an answer may have made'),
    (_PREEMPTIBLE, 'end_lease', 'delete_lease'): (
        'end_lease\'s cleanup branch (no rule given); with a rule it hands '
        'the delete to must_succeed'),
})

# Reads and lifecycle calls no rule judges (issue 60).
_SPEC = 'api/clustering/test_affinity_spec.py'
ALLOWED.update({
    (_CLUSTERING, '_delete_cluster', 'show_cluster'): (
        'cleanup: is the cluster still there to delete'),
    (_CLUSTERING, '_detach_if_bound', 'list_bindings'): (
        'cleanup: is the policy still bound'),
    (_CLUSTERING, '_detach_if_bound', 'release_cluster'): (
        'cleanup: ends or force-cancels what holds the cluster\'s lock'),
    (_CLUSTERING, '_detach_if_bound', 'wait_for_action'): (
        'cleanup: the detach\'s end, raised with senlin\'s reason'),
    (_CLI_AFFINITY, '_delete_policies_named', 'list_policies'): (
        'cleanup: the policies a command that failed may have made'),
    ('api/clustering/test_affinity_placement.py',
     'test_drs_zone_with_availability_zone', 'add_host'): (
        'set-up: the DRS host joins the test\'s aggregate, as its '
        'create_aggregate above'),
    (_SPEC, '_accepted', 'submit_policy'): (
        'returns every answer as (status, body); the control asserts a '
        '2xx itself'),
    (_SPEC, '_refused', 'submit_policy'): (
        'returns every answer as (status, body); the refusal test asserts '
        'its 4xx and message itself'),
    (_LEASE_CLI, 'delete_leases_named', 'list_leases'): (
        'cleanup: the leases a command that failed may have made'),
    (_LEASES, 'delete_leases_named', 'list_leases'): (
        'cleanup: the leases a POST without an answer may have made'),
    (_SCENARIO, 'delete_servers_named', 'list_servers'): (
        'cleanup: servers a boot without an answer may have made'),
    (_SCENARIO, 'anti_affinity_zone_size', 'list_availability_zones'): (
        'configuration check: is [conformance] anti_affinity_zone an '
        'available zone (InvalidConfiguration says what to set)'),
    (_PREEMPTIBLE, '_flavor', 'set_flavor_extra_spec'): (
        'set-up: the preemptible flavor\'s extra spec, on the admin\'s '
        'flavor made above'),
    (_PREEMPTIBLE, 'end_leases_named', 'list_leases'): (
        'cleanup: the leases a POST without an answer may have made'),
    (_PREEMPTIBLE, 'fill_quota', 'show_limits'): (
        'set-up: room in the admin\'s own quota for the fillers, or a '
        'skip saying what it takes'),
    (_QUOTA, '_second_user', 'list_roles'): (
        'set-up: the member role user B is given; keystone is no '
        'seed-001 rule'),
})


def _name(node):
    return (node.attr if isinstance(node, ast.Attribute) else
            node.id if isinstance(node, ast.Name) else None)


def _governed(callee):
    """The name of a callable expression whose call a rule may govern, or
    None."""
    name = _name(callee)
    if name and (name in MUTATING_NAMES or
                 name.startswith(MUTATING_PREFIXES + READ_PREFIXES)):
        return name
    return None


def _calls(path):
    """[(enclosing function, called name, line)] of governed calls."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call):
                name = _governed(child.func)
                if name:
                    found.append((function, name, child.lineno))
                if (_name(child.func) in CALLING_WRAPPERS and child.args
                        and _governed(child.args[0])):
                    found.append((function, _governed(child.args[0]),
                                  child.lineno))
            visit(child, function)
    visit(tree, None)
    return found


def _root():
    return os.path.dirname(paths.__file__).rsplit(os.sep, 1)[0]


def _modules():
    root = _root()
    found = sorted(os.path.relpath(path, root)
                   for pattern in MODULE_GLOBS
                   for path in glob.glob(os.path.join(root, pattern)))
    return [m for m in found if not m.endswith('__init__.py')]


class RuleCallsTest(testtools.TestCase):

    def test_converted_modules_call_through_outcomes(self):
        loose = []
        modules = _modules()
        self.assertGreater(len(modules), 10, 'the walk found no test module')
        for module in modules:
            for function, name, line in _calls(os.path.join(_root(),
                                                            module)):
                if (module, function, name) not in ALLOWED:
                    loose.append('%s:%d %s() calls %s outside '
                                 'common/outcomes' % (module, line,
                                                      function, name))
        self.assertEqual([], loose)

    def test_every_allowed_entry_is_still_there(self):
        # An entry whose call went away would hide the next one.
        present = {(m, f, n) for m in _modules()
                   for f, n, _ in _calls(os.path.join(_root(), m))}
        self.assertEqual([], sorted(set(ALLOWED) - present))

    def calls_in(self, body):
        """_calls of a module whose test_x holds ``body`` (lines)."""
        module = os.path.join(self.useFixture(fixtures.TempDir()).path,
                              'm.py')
        with open(module, 'w') as f:
            f.write('class T:\n    def test_x(self):\n' + ''.join(
                '        %s\n' % line for line in body))
        return _calls(module)

    def test_the_walk_finds_a_loose_boot(self):
        # The control: the walk sees what it must refuse.
        self.assertEqual([('test_x', 'boot', 3)], self.calls_in([
            'self.boot(flavor=1)',
            'outcomes.must_succeed(self, R, self.boot)']))

    def test_the_walk_finds_a_delete_handed_to_ignore_notfound(self):
        # The hole of the lease end: the delete is an argument, not a call.
        self.assertEqual([('test_x', 'delete_lease', 3)], self.calls_in([
            'test_utils.call_and_ignore_notfound_exc(',
            '    self.leases.delete_lease, lease_id)']))

    def test_the_walk_finds_a_loose_read(self):
        # A read the rule judges, called bare, is found; handed to
        # must_succeed it is not.
        self.assertEqual([('test_x', 'show_server_group', 3)],
                         self.calls_in([
                             'self.groups.show_server_group(group_id)',
                             'outcomes.must_succeed(self, R, self.groups.'
                             'show_server_group, group_id)']))

    def test_the_walk_finds_a_read_handed_to_gone(self):
        # waiters.gone takes a 404 as its answer and lets a 5xx escape.
        self.assertEqual([('test_x', 'show_lease', 3)], self.calls_in([
            'waiters.gone(self.leases.show_lease, lease_id)',
            'outcomes.must_succeed(self, R, waiters.gone, '
            'self.leases.show_lease, lease_id)']))

    def test_the_walk_finds_a_senlin_action_wait(self):
        self.assertEqual([('test_x', 'wait_for_action', 3)], self.calls_in([
            'self.clustering.wait_for_action(action_id, "CLUSTER_CREATE")']))
