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

"""Keystone: the users and projects a run made.

Projects: the suite's own and those Tempest's dynamic credentials made
for the run's test classes (names.py). Users likewise; they go before
the projects, as Tempest removes its dynamic credentials.
"""

from conformance_tests.cleanup import kinds


def run_projects(ctx):
    """The run's projects, listed once (servers, groups and quotas are
    the run's when they belong to one)."""
    def listing():
        projects = ctx.projects_client.list_projects()['projects']
        return [kinds.Item(p['id'], p['name'], p) for p in projects
                if ctx.names.project(p['name'])]
    return kinds.cached(ctx, 'projects', listing)


def run_project_ids(ctx):
    return {p.id for p in run_projects(ctx)}


def run_users(ctx):
    def listing():
        users = ctx.users_client.list_users()['users']
        return [kinds.Item(u['id'], u['name'], u) for u in users
                if ctx.names.user(u['name'])]
    return kinds.cached(ctx, 'users', listing)


class Users(kinds.Kind):
    singular, plural = 'user', 'users'

    def find(self, ctx):
        return run_users(ctx)

    def remove_one(self, ctx, item):
        ctx.users_client.delete_user(item.id)


class Projects(kinds.Kind):
    singular, plural = 'project', 'projects'

    def find(self, ctx):
        return run_projects(ctx)

    def remove_one(self, ctx, item):
        ctx.projects_client.delete_project(item.id)
