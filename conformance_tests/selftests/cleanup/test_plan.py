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

"""cleanup/plan.py over a fake cloud: the run's leftovers go, in
dependency order; everything the run did not make stays. No cloud: the
fake clients answer the same calls Tempest's clients make and log every
change."""

import contextlib
import io
import itertools

import testtools

from tempest.lib import exceptions as lib_exc

from conformance_tests.cleanup import context
from conformance_tests.cleanup import names
from conformance_tests.cleanup import plan
from conformance_tests.cmd import cleanup as cleanup_cmd

CLASSES = ('QuotaUsageTest', 'ServerGroupSpreadTest')
DEFAULT_QUOTA = {'instances': 10, 'cores': 20}


class FakeCloud(object):
    """One cloud's state and a log of every change, in order."""

    def __init__(self):
        self.log = []
        self.ids = itertools.count(1)
        self.down_cells = set()
        self.servers, self.groups, self.flavors = {}, {}, {}
        self.aggregates, self.users, self.projects = {}, {}, {}
        self.quotas = {}  # (project, user or None) -> limits
        self.providers, self.classes, self.traits = {}, set(), set()

    def add(self, table, name, **extra):
        ident = 'id%d' % next(self.ids)
        table[ident] = dict(extra, id=ident, uuid=ident, name=name)
        return ident

    def name_of(self, table, ident):
        return table[ident]['name']


class _Client(object):
    def __init__(self, cloud):
        self.cloud = cloud

    def _delete(self, table, kind, ident):
        if ident not in table:
            raise lib_exc.NotFound()
        self.cloud.log.append(('delete', kind, table[ident]['name']))
        del table[ident]


class FakeServers(_Client):
    build_interval = 0
    build_timeout = 1

    def list_servers(self, detail=False, **params):
        assert params.get('all_tenants'), 'servers of every project'
        # nova leaves out the servers of a cell it cannot read
        return {'servers': [s for s in self.cloud.servers.values()
                            if s['cell'] not in self.cloud.down_cells]}

    def delete_server(self, ident):
        self._delete(self.cloud.servers, 'server', ident)

    def show_server(self, ident):
        if ident not in self.cloud.servers:
            raise lib_exc.NotFound()
        return {'server': self.cloud.servers[ident]}


class FakeGroups(_Client):
    def list_server_groups(self, **params):
        assert params.get('all_projects'), 'groups of every project'
        return {'server_groups': list(self.cloud.groups.values())}

    def delete_server_group(self, ident):
        members = [s for s in self.cloud.servers.values()
                   if s.get('group') == ident]
        assert not members, 'a group deleted before its servers'
        self._delete(self.cloud.groups, 'server group', ident)


class FakeFlavors(_Client):
    def list_flavors(self, detail=False, **params):
        assert 'is_public' in params and params['is_public'] is None
        return {'flavors': list(self.cloud.flavors.values())}

    def delete_flavor(self, ident):
        self._delete(self.cloud.flavors, 'flavor', ident)


class FakeAggregates(_Client):
    def list_aggregates(self):
        return {'aggregates': list(self.cloud.aggregates.values())}

    def remove_host(self, ident, host):
        self.cloud.aggregates[ident]['hosts'].remove(host)
        self.cloud.log.append(('remove host', host,
                               self.cloud.aggregates[ident]['name']))

    def delete_aggregate(self, ident):
        assert not self.cloud.aggregates[ident]['hosts'], (
            'nova refuses to delete an aggregate with hosts')
        self._delete(self.cloud.aggregates, 'aggregate', ident)


class FakeQuotas(_Client):
    def show_quota_set(self, project, user_id=None):
        quotas = self.cloud.quotas
        limits = quotas.get((project, user_id)) or quotas.get(
            (project, None)) or DEFAULT_QUOTA
        return {'quota_set': dict(limits, id=project)}

    def show_default_quota_set(self, project):
        return {'quota_set': dict(DEFAULT_QUOTA, id=project)}

    def delete_quota_set(self, project):
        for key in [k for k in self.cloud.quotas if k[0] == project]:
            del self.cloud.quotas[key]
        self.cloud.log.append(('reset quotas', 'project',
                               self.cloud.name_of(self.cloud.projects,
                                                  project)))


class FakeUsers(_Client):
    def list_users(self):
        return {'users': list(self.cloud.users.values())}

    def delete_user(self, ident):
        self._delete(self.cloud.users, 'user', ident)


class FakeProjects(_Client):
    def list_projects(self):
        return {'projects': list(self.cloud.projects.values())}

    def delete_project(self, ident):
        self._delete(self.cloud.projects, 'project', ident)


class FakePlacement(_Client):
    def list_providers(self):
        return list(self.cloud.providers.values())

    def delete_provider(self, ident):
        children = [p for p in self.cloud.providers.values()
                    if p.get('parent_provider_uuid') == ident]
        if children:
            raise lib_exc.Conflict('provider has children')
        self._delete(self.cloud.providers, 'provider', ident)

    def list_resource_classes(self):
        return [{'name': n} for n in sorted(self.cloud.classes)]

    def delete_resource_class(self, name):
        self.cloud.classes.remove(name)
        self.cloud.log.append(('delete', 'resource class', name))

    def list_traits(self):
        return sorted(self.cloud.traits)

    def delete_trait(self, name):
        self.cloud.traits.remove(name)
        self.cloud.log.append(('delete', 'trait', name))


class FakeFault(object):
    def __init__(self, cloud):
        self.cloud = cloud

    def cell_up(self, cell):
        self.cloud.down_cells.discard(cell)
        self.cloud.log.append(('cell up', 'cell', cell))


def fake_context(cloud):
    ctx = context.Context(
        names.RunNames('conformance', CLASSES, kept=('cloud-admin',)),
        kept_zones=('conformance-zone', 'conformance-cell2'),
        servers_client=FakeServers(cloud),
        server_groups_client=FakeGroups(cloud),
        flavors_client=FakeFlavors(cloud),
        aggregates_client=FakeAggregates(cloud),
        quotas_client=FakeQuotas(cloud),
        users_client=FakeUsers(cloud),
        projects_client=FakeProjects(cloud),
        placement_client=FakePlacement(cloud))
    ctx.fault, ctx.cell = FakeFault(cloud), 'cell2'
    return ctx


def killed_run(cloud):
    """What a run killed mid-scenario leaves, beside what others made.

    Returns the names of everything the run did not make.
    """
    add = cloud.add
    # keystone: the run's dynamic credentials and its own user; the
    # cloud's admin, the services' project, another plugin's credentials
    dyn = add(cloud.projects, 'tempest-QuotaUsageTest-1476')
    dyn2 = add(cloud.projects, 'tempest-ServerGroupSpreadTest-99')
    admin = add(cloud.projects, 'cloud-admin')
    add(cloud.projects, 'service')
    other = add(cloud.projects, 'tempest-SomeoneElsesTest-5')
    add(cloud.projects, 'conformance')
    for name in ('tempest-QuotaUsageTest-1476-project-member',
                 'tempest-QuotaUsageTest-1476-project-admin',
                 'tempest-ServerGroupSpreadTest-99-project-member',
                 'conformance-user-b-3141'):
        user = add(cloud.users, name)
    for name in ('cloud-admin', 'nova', 'placement',
                 'tempest-SomeoneElsesTest-5-project', 'conformance-keep'):
        add(cloud.users, name)
    # nova
    group = add(cloud.groups, 'conformance-sg-27', project_id=dyn2)
    add(cloud.groups, 'keep-me', project_id=admin)
    add(cloud.groups, 'conformance-keep', project_id=other)
    add(cloud.servers, 'conformance-server-1', tenant_id=dyn2, cell='cell1',
        group=group)
    add(cloud.servers, 'conformance-server-2', tenant_id=dyn2, cell='cell2',
        group=group)
    # the run's project, whatever the name
    add(cloud.servers, 'unnamed', tenant_id=dyn, cell='cell1')
    add(cloud.servers, 'keep-me', tenant_id=admin, cell='cell1')
    add(cloud.servers, 'conformance-keep', tenant_id=other, cell='cell2')
    add(cloud.flavors, 'conformance-huge-4', ram=10 ** 7)
    for name in ('m1.tiny', 'm1.small', 'conformance-keep'):
        add(cloud.flavors, name)
    add(cloud.aggregates, 'conformance-agg-5', hosts=['host1'],
        availability_zone=None)
    add(cloud.aggregates, 'conformance-zone',
        hosts=['host1', 'host2', 'host3'],
        availability_zone='conformance-zone')
    add(cloud.aggregates, 'conformance-cell2', hosts=['host4'],
        availability_zone='conformance-cell2')
    add(cloud.aggregates, 'conformance-rack-7', hosts=[],
        availability_zone='conformance-zone')
    cloud.quotas[(dyn, None)] = {'instances': 3, 'cores': -1}
    cloud.quotas[(dyn, user)] = {'instances': 1, 'cores': -1}
    cloud.quotas[(other, None)] = {'instances': 1, 'cores': 1}
    cloud.down_cells.add('cell2')
    # placement: a topology cn -> numa -> leaf, and what others made
    root = add(cloud.providers, 'conformance-1a2b3c4d-cn1')
    mid = add(cloud.providers, 'conformance-1a2b3c4d-numa1',
              parent_provider_uuid=root)
    add(cloud.providers, 'conformance-1a2b3c4d-leaf',
        parent_provider_uuid=mid)
    host = add(cloud.providers, 'host1')
    add(cloud.providers, 'conformance-keep', parent_provider_uuid=host)
    cloud.classes |= {'CUSTOM_CONFORMANCE_1A2B3C4D_CORE', 'VCPU',
                      'CUSTOM_CONFORMANCE_KEEP', 'CUSTOM_GPU'}
    cloud.traits |= {'CUSTOM_CONFORMANCE_1A2B3C4D_FAST',
                     'MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_CONFORMANCE_KEEP'}
    return {
        'projects': {'cloud-admin', 'service', 'tempest-SomeoneElsesTest-5',
                     'conformance'},
        'users': {'cloud-admin', 'nova', 'placement', 'conformance-keep',
                  'tempest-SomeoneElsesTest-5-project'},
        'groups': {'keep-me', 'conformance-keep'},
        'servers': {'keep-me', 'conformance-keep'},
        'flavors': {'m1.tiny', 'm1.small', 'conformance-keep'},
        'aggregates': {'conformance-zone', 'conformance-cell2',
                       'conformance-rack-7'},
        'providers': {'host1', 'conformance-keep'},
        'classes': {'VCPU', 'CUSTOM_CONFORMANCE_KEEP', 'CUSTOM_GPU'},
        'traits': {'MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_CONFORMANCE_KEEP'},
    }


def names_in(table):
    return {row['name'] for row in table.values()}


class PlanTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.cloud = FakeCloud()
        self.foreign = killed_run(self.cloud)
        self.ctx = fake_context(self.cloud)
        self.said = []

    def run_plan(self, **kwargs):
        return plan.run(self.ctx, say=self.said.append, **kwargs)

    def position(self, *entry):
        return self.cloud.log.index(entry)

    def test_only_what_the_run_made_remains_of_nothing(self):
        self.assertEqual([], self.run_plan())
        c = self.cloud
        self.assertEqual(self.foreign['projects'], names_in(c.projects))
        self.assertEqual(self.foreign['users'], names_in(c.users))
        self.assertEqual(self.foreign['groups'], names_in(c.groups))
        self.assertEqual(self.foreign['servers'], names_in(c.servers))
        self.assertEqual(self.foreign['flavors'], names_in(c.flavors))
        self.assertEqual(self.foreign['aggregates'], names_in(c.aggregates))
        self.assertEqual(self.foreign['providers'], names_in(c.providers))
        self.assertEqual(self.foreign['classes'], c.classes)
        self.assertEqual(self.foreign['traits'], c.traits)

    def test_foreign_quota_changes_stay(self):
        self.run_plan()
        self.assertEqual([(k[1], v) for k, v in self.cloud.quotas.items()],
                         [(None, {'instances': 1, 'cores': 1})])

    def test_the_cell_comes_back_before_anything_is_listed(self):
        self.run_plan()
        self.assertEqual(('cell up', 'cell', 'cell2'), self.cloud.log[0])
        # its server was invisible while the cell was down, and is gone
        self.assertIn(('delete', 'server', 'conformance-server-2'),
                      self.cloud.log)
        self.assertEqual(set(), self.cloud.down_cells)

    def test_dependency_order(self):
        self.run_plan()
        at = self.position
        last_server = max(at('delete', 'server', n) for n in (
            'conformance-server-1', 'conformance-server-2', 'unnamed'))
        self.assertLess(last_server,
                        at('delete', 'server group', 'conformance-sg-27'))
        self.assertLess(at('delete', 'server group', 'conformance-sg-27'),
                        at('delete', 'flavor', 'conformance-huge-4'))
        self.assertLess(at('delete', 'flavor', 'conformance-huge-4'),
                        at('remove host', 'host1', 'conformance-agg-5'))
        self.assertLess(at('remove host', 'host1', 'conformance-agg-5'),
                        at('delete', 'aggregate', 'conformance-agg-5'))
        self.assertLess(
            at('delete', 'aggregate', 'conformance-agg-5'),
            at('reset quotas', 'project', 'tempest-QuotaUsageTest-1476'))
        self.assertLess(
            at('reset quotas', 'project', 'tempest-QuotaUsageTest-1476'),
            at('delete', 'user', 'conformance-user-b-3141'))
        self.assertLess(
            at('delete', 'user', 'tempest-QuotaUsageTest-1476-project-admin'),
            at('delete', 'project', 'tempest-QuotaUsageTest-1476'))
        self.assertLess(
            at('delete', 'project', 'tempest-QuotaUsageTest-1476'),
            at('delete', 'provider', 'conformance-1a2b3c4d-leaf'))
        self.assertLess(at('delete', 'provider', 'conformance-1a2b3c4d-leaf'),
                        at('delete', 'provider',
                           'conformance-1a2b3c4d-numa1'))
        self.assertLess(
            at('delete', 'provider', 'conformance-1a2b3c4d-numa1'),
            at('delete', 'provider', 'conformance-1a2b3c4d-cn1'))
        self.assertLess(
            at('delete', 'provider', 'conformance-1a2b3c4d-cn1'),
            at('delete', 'resource class',
               'CUSTOM_CONFORMANCE_1A2B3C4D_CORE'))
        self.assertLess(
            at('delete', 'provider', 'conformance-1a2b3c4d-cn1'),
            at('delete', 'trait', 'CUSTOM_CONFORMANCE_1A2B3C4D_FAST'))

    def test_summary_counts_each_kind(self):
        self.run_plan()
        self.assertEqual(
            ['removed 3 servers, 1 server group, 1 flavor, 1 aggregate, '
             '1 quota change, 4 users, 2 projects, 3 resource providers, '
             '1 resource class, 1 trait; cell cell2 is up'], self.said)

    def test_dry_run_changes_nothing_and_lists_the_runs_only(self):
        self.assertEqual([], self.run_plan(dry_run=True))
        self.assertEqual([], self.cloud.log)
        listed = '\n'.join(self.said)
        for name in ('conformance-server-1', 'unnamed', 'conformance-sg-27',
                     'tempest-QuotaUsageTest-1476',
                     'CUSTOM_CONFORMANCE_1A2B3C4D_FAST'):
            self.assertIn(name, listed)
        for kind in self.foreign.values():
            for name in kind:
                self.assertNotIn(' %s ' % name, listed.replace(
                    '\n', ' \n') + ' ')
        self.assertTrue(self.said[-1].startswith('would remove 2 servers'),
                        self.said[-1])  # the down cell's is not listed
        self.assertTrue(self.said[-1].endswith('would bring cell cell2 up'))

    def test_a_failure_is_one_line_and_the_rest_still_goes(self):
        def refuse(ident):
            raise lib_exc.Conflict('flavor in use\nby something')

        self.ctx.flavors_client.delete_flavor = refuse
        errors = self.run_plan()
        self.assertEqual(1, len(errors))
        self.assertNotIn('\n', errors[0])
        self.assertIn('could not remove flavor conformance-huge-4', errors[0])
        self.assertNotIn('tempest-QuotaUsageTest-1476',
                         names_in(self.cloud.projects))
        self.assertIn('0 flavors', self.said[-1])

    def test_a_kind_that_cannot_be_listed_is_one_error(self):
        def broken():
            raise lib_exc.ServerFault('500')

        self.ctx.aggregates_client.list_aggregates = broken
        errors = self.run_plan()
        self.assertEqual(['could not list aggregates: Got server fault '
                          'Details: 500'], errors)
        self.assertEqual(set(), names_in(self.cloud.flavors) - set(
            self.foreign['flavors']))

    def test_a_service_the_cloud_lacks_is_skipped_and_said(self):
        for attr in ('servers_client', 'server_groups_client',
                     'flavors_client', 'aggregates_client', 'quotas_client'):
            setattr(self.ctx, attr, None)
        self.ctx.fault = None
        self.assertEqual([], self.run_plan())
        self.assertIn('not searched, not in the catalog: nova',
                      self.said[-1])
        self.assertNotIn('cell', self.said[-1])
        self.assertEqual(set(), self.cloud.traits - self.foreign['traits'])


class CommandTest(testtools.TestCase):

    def test_no_tempest_conf_is_a_one_line_error(self):
        args = type('Args', (), {'tempest_conf': '/nonexistent/t.conf',
                                 'workdir': '.', 'dry_run': False})
        e = self.assertRaises(cleanup_cmd.CleanupError,
                              cleanup_cmd.cmd_cleanup, args)
        self.assertIn('no tempest.conf at /nonexistent/t.conf', str(e))

    def test_errors_are_printed_one_per_line_and_exit_1(self):
        cloud = FakeCloud()
        killed_run(cloud)
        ctx = fake_context(cloud)
        ctx.flavors_client.delete_flavor = _refuse
        self.patch(context, 'load_conf', lambda path: None)
        self.patch(context, 'from_conf', lambda conf: ctx)
        args = type('Args', (), {'tempest_conf': __file__, 'workdir': '.',
                                 'dry_run': False})
        failed, out = [], io.StringIO()
        with contextlib.redirect_stdout(out):
            code = cleanup_cmd.cmd_cleanup(args, fail=failed.append)
        self.assertEqual(1, code)
        self.assertEqual(1, len(failed))
        self.assertIn('removed 3 servers', out.getvalue())


def _refuse(ident):
    raise lib_exc.Conflict('in use')
