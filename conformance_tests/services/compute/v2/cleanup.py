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

"""Nova: servers, server groups, flavors, aggregates and quota changes.

A server or server group is the run's when the suite named it or when it
belongs to a project the run made. Flavors and aggregates are the run's
only by name; the zones an operator (or the embedded cloud's launcher)
made are kept even if their names start with the prefix.
"""

from tempest.common import waiters

from conformance_tests.cleanup import kinds
from conformance_tests.services.identity import cleanup as identity

PAGE = 1000  # nova's default [api] max_limit


def _is_runs(ctx, name, project_id):
    return ctx.names.made(name) or project_id in identity.run_project_ids(
        ctx)


class Servers(kinds.Kind):
    singular, plural = 'server', 'servers'

    def find(self, ctx):
        found, marker = [], None
        while True:
            params = {'all_tenants': True, 'limit': PAGE}
            if marker:
                params['marker'] = marker
            page = ctx.servers_client.list_servers(
                detail=True, **params)['servers']
            found += [kinds.Item(s['id'], '%s (%s)' % (s['name'], s['id']),
                                 s) for s in page
                      if _is_runs(ctx, s.get('name'), s.get('tenant_id'))]
            if len(page) < PAGE:
                return found
            marker = page[-1]['id']

    def remove(self, ctx, items):
        # Ask for every deletion first, then wait: the waits overlap.
        asked, errors = self.remove_each(ctx, items)
        for item in asked:
            try:
                waiters.wait_for_server_termination(
                    ctx.servers_client, item.id, ignore_error=True)
            except Exception as e:
                errors.append(self.failed(
                    item, e, doing='wait for the deletion of'))
        return errors

    def remove_one(self, ctx, item):
        ctx.servers_client.delete_server(item.id)


class ServerGroups(kinds.Kind):
    singular, plural = 'server group', 'server groups'

    def find(self, ctx):
        groups = ctx.server_groups_client.list_server_groups(
            all_projects=True)['server_groups']
        return [kinds.Item(g['id'], '%s (%s)' % (g['name'], g['id']), g)
                for g in groups
                if _is_runs(ctx, g.get('name'), g.get('project_id'))]

    def remove_one(self, ctx, item):
        ctx.server_groups_client.delete_server_group(item.id)


class Flavors(kinds.Kind):
    singular, plural = 'flavor', 'flavors'

    def find(self, ctx):
        # is_public=None: public and private flavors alike (admin only).
        flavors = ctx.flavors_client.list_flavors(is_public=None)['flavors']
        return [kinds.Item(f['id'], '%s (%s)' % (f['name'], f['id']), f)
                for f in flavors if ctx.names.made(f['name'])]

    def remove_one(self, ctx, item):
        ctx.flavors_client.delete_flavor(item.id)


class Aggregates(kinds.Kind):
    singular, plural = 'aggregate', 'aggregates'

    def find(self, ctx):
        aggregates = ctx.aggregates_client.list_aggregates()['aggregates']
        return [kinds.Item(a['id'], '%s (%s)' % (a['name'], a['id']), a)
                for a in aggregates
                if ctx.names.made(a['name'])
                and a['name'] not in ctx.kept_zones
                and a.get('availability_zone') not in ctx.kept_zones]

    def remove_one(self, ctx, item):
        # Nova refuses to delete an aggregate that still has hosts.
        for host in item.data.get('hosts') or []:
            ctx.aggregates_client.remove_host(item.id, host=host)
        ctx.aggregates_client.delete_aggregate(item.id)


class Quotas(kinds.Kind):
    """Quota limits set on the run's projects or on their users.

    Resetting a project's quota set also drops its per-user limits.
    """
    singular, plural = 'quota change', 'quota changes'

    def find(self, ctx):
        users = identity.run_users(ctx)
        changed = []
        for project in identity.run_projects(ctx):
            if self._changed(ctx, project.id, users):
                changed.append(kinds.Item(
                    project.id, 'of project %s' % project.label, None))
        return changed

    @staticmethod
    def _limits(body):
        return {k: v for k, v in body['quota_set'].items() if k != 'id'}

    def _changed(self, ctx, project_id, users):
        quotas = ctx.quotas_client
        limits = self._limits(quotas.show_quota_set(project_id))
        if limits != self._limits(quotas.show_default_quota_set(project_id)):
            return True
        # A user without limits of their own shows the project's.
        return any(self._limits(quotas.show_quota_set(
            project_id, user_id=user.id)) != limits for user in users)

    def remove_one(self, ctx, item):
        ctx.quotas_client.delete_quota_set(item.id)
