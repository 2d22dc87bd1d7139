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

"""Mutants of quota counting and down-cell views (spec seed 001).

Applied in the nova process before its services start.
"""

from conformance_tests.cloud.mutants import register


@register(
    'quota-cores-ram-from-cells', 'nova',
    targets=('compute.quota-from-placement.unscheduled-server',
             'compute.quota-from-placement.usage-agreement',
             'compute.quota-from-placement.cell-outage'),
    rule='with count_usage_from_placement, cores and RAM in use come from '
         'placement, not from the cell databases (which a down cell\'s '
         'servers leave out)')
def cores_ram_from_cells():
    from nova import quota

    def from_cells(context, project_id, user_id=None):
        counts = quota._instances_cores_ram_count_legacy(
            context, project_id, user_id=user_id)
        return {scope: {k: v for k, v in found.items() if k != 'instances'}
                for scope, found in counts.items()}

    quota._cores_ram_count_placement = from_cells


@register(
    'quota-ignores-user', 'nova',
    targets=('compute.quota-from-placement.per-user-limit',
             'compute.quota-from-placement.usage-agreement'),
    rule='per-user usage counts only that user\'s servers')
def ignores_user():
    from nova import quota

    original = quota._instances_cores_ram_count_api_db_placement

    def project_for_user(context, project_id, user_id=None):
        counts = original(context, project_id, user_id=user_id)
        if 'user' in counts:
            counts['user'] = dict(counts['project'])
        return counts

    quota._instances_cores_ram_count_api_db_placement = project_for_user


@register(
    'quota-user-cores-ram-from-project', 'nova',
    targets=('compute.quota-from-placement.per-user-limit',
             'compute.quota-from-placement.usage-agreement'),
    rule='a user\'s cores and RAM in use are that user\'s own (the second '
         '/usages call, with user_id); here the project\'s stand in')
def user_cores_ram_from_project():
    from nova import quota

    original = quota._cores_ram_count_placement

    def project_for_user(context, project_id, user_id=None):
        counts = original(context, project_id, user_id=user_id)
        if 'user' in counts:
            counts['user'] = dict(counts['project'])
        return counts

    quota._cores_ram_count_placement = project_for_user


@register(
    'quota-user-cores-ram-limits-ignored', 'nova',
    targets=('compute.quota-from-placement.per-user-limit',),
    rule='a per-user cores or RAM limit is enforced (here only the '
         'project\'s cores and RAM limits are checked)')
def user_cores_ram_limits_ignored():
    from nova import objects

    original = objects.Quotas.limit_check_project_and_user.__func__

    def project_only(cls, context, project_values=None, user_values=None,
                     **kwargs):
        user_values = {k: v for k, v in (user_values or {}).items()
                       if k not in ('cores', 'ram')}
        return original(cls, context, project_values=project_values,
                        user_values=user_values, **kwargs)

    objects.Quotas.limit_check_project_and_user = classmethod(project_only)


@register(
    'quota-counts-deleted-servers', 'nova',
    targets=('compute.quota-from-placement.usage-agreement',),
    rule='a deleted server counts toward instances no more (its instance '
         'mapping is queued for deletion; here every mapping counts)')
def counts_deleted_servers():
    import sqlalchemy

    from nova.db.api import api as api_db_api
    from nova.db.api import models as api_models
    from nova import objects

    @api_db_api.context_manager.reader
    def every_mapping(context, project_id, user_id=None):
        query = context.session.query(
            sqlalchemy.func.count(api_models.InstanceMapping.id)).filter_by(
                project_id=project_id)
        counts = {'project': {'instances': query.scalar()}}
        if user_id:
            counts['user'] = {
                'instances': query.filter_by(user_id=user_id).scalar()}
        return counts

    objects.InstanceMappingList._get_counts_in_db = staticmethod(
        every_mapping)


@register(
    'quota-deleted-cores-ram-kept', 'nova',
    targets=('compute.quota-from-placement.usage-agreement',),
    rule='a deleted server\'s cores and RAM count no more (usage is counted '
         'from placement, whose allocations go with the server; here the '
         'compute leaves them, and its periodic clean-up too)')
def deleted_cores_ram_kept():
    from nova.compute import manager
    from nova.compute import resource_tracker

    original = manager.ComputeManager._complete_deletion

    def complete_deletion(self, context, instance):
        # The allocations stay for this call only: a rescheduled or
        # migrated server's are not this rule's.
        self.reportclient.delete_allocation_for_instance = (
            lambda *args, **kwargs: True)
        try:
            return original(self, context, instance)
        finally:
            del self.reportclient.delete_allocation_for_instance

    manager.ComputeManager._complete_deletion = complete_deletion
    resource_tracker.ResourceTracker._remove_deleted_instances_allocations = (
        lambda self, *args, **kwargs: None)


@register(
    'quota-user-limit-for-every-user', 'nova',
    targets=('compute.quota-from-placement.per-user-limit',),
    rule='a per-user limit binds that user only: another user of the '
         'project still boots (here one user\'s limit binds the whole '
         'project, as if it were the project\'s)')
def user_limit_for_every_user():
    from nova.db.api import api as api_db_api
    from nova.db.api import models as api_models
    from nova import objects

    @api_db_api.context_manager.reader
    def user_limits(context, project_id):
        return context.session.query(
            api_models.ProjectUserQuota.resource,
            api_models.ProjectUserQuota.hard_limit).filter_by(
                project_id=project_id).all()

    original = objects.Quotas.get_all_by_project.__func__

    def by_project(cls, context, project_id):
        found = original(cls, context, project_id)
        for row in user_limits(context, project_id):
            found[row.resource] = row.hard_limit
        return found

    objects.Quotas.get_all_by_project = classmethod(by_project)


@register(
    'quota-check-skipped-when-cell-down', 'nova',
    targets=('compute.quota-from-placement.cell-outage',),
    rule='a boot over quota is refused also while a cell is down')
def check_skipped_when_cell_down():
    from nova import context as nova_context
    from nova import objects

    original = objects.Quotas.check_deltas.__func__

    def lenient(cls, context, deltas, *args, **kwargs):
        answers = nova_context.scatter_gather_skip_cell0(
            context, objects.ServiceList.get_all)
        if any(nova_context.is_cell_failure_sentinel(a)
               for a in answers.values()):
            return None  # "cannot count everything: let it through"
        return original(cls, context, deltas, *args, **kwargs)

    objects.Quotas.check_deltas = classmethod(lenient)


@register(
    'unmigrated-counted-from-placement', 'nova',
    targets=('compute.quota-from-placement.unmigrated-fallback',),
    rule='while an instance mapping has no user_id nova counts usage the '
         'legacy way (here it counts from placement whatever the '
         'migration\'s state)')
def unmigrated_counted_from_placement():
    from nova import quota

    quota._user_id_queued_for_delete_populated = (
        lambda context, project_id=None: True)


@register(
    'legacy-count-kept-after-migration', 'nova',
    targets=('compute.quota-from-placement.unmigrated-fallback',),
    rule='once populate_user_id has run nova counts usage from placement '
         'again (here a project once found unmigrated is counted the legacy '
         'way for good)')
def legacy_count_kept_after_migration():
    from nova import quota

    original = quota._user_id_queued_for_delete_populated
    unmigrated = set()

    def remembered(context, project_id=None):
        if project_id in unmigrated:
            return False
        populated = original(context, project_id)
        if project_id and not populated:
            unmigrated.add(project_id)
        return populated

    quota._user_id_queued_for_delete_populated = remembered


def _servers_see_2_69_as(answer):
    """Make the servers API answer ``answer(real)`` when it asks whether
    the request is at 2.69 (the down-cell microversion)."""
    from nova.api.openstack import api_version_request
    from nova.api.openstack.compute import servers

    real = api_version_request.is_supported

    class Patched(object):
        def __getattr__(self, name):
            return getattr(api_version_request, name)

        @staticmethod
        def is_supported(req, min_version, *args, **kwargs):
            supported = real(req, min_version, *args, **kwargs)
            if min_version == '2.69':
                return answer(supported)
            return supported

    servers.api_version_request = Patched()


@register(
    'down-cell-views-not-partial', 'nova',
    targets=('compute.down-cell-views.2-69',),
    rule='from 2.69 servers of a down cell are shown as partial records')
def views_not_partial():
    _servers_see_2_69_as(lambda supported: False)


@register(
    'down-cell-partial-before-2-69', 'nova',
    targets=('compute.down-cell-views.2-69',),
    rule='below 2.69 lists skip servers of a down cell and a show is 500')
def partial_before_2_69():
    _servers_see_2_69_as(lambda supported: True)


@register(
    'down-cell-servers-listed-active', 'nova',
    targets=('compute.down-cell-views.2-69',),
    rule='from 2.69 a server of a down cell is shown with status UNKNOWN')
def down_cell_servers_active():
    # The partial records keep their shape; only the status claims the
    # server runs. A test that waited for "not ACTIVE" before checking
    # the view would time out here instead of failing its assertion.
    from nova.api.openstack.compute.views import servers as views

    def claiming_active(view):
        def wrapped(self, *args, **kwargs):
            answer = view(self, *args, **kwargs)
            server = answer.get('server', {})
            if server.get('status') == 'UNKNOWN':
                server['status'] = 'ACTIVE'
            return answer
        return wrapped

    views.ViewBuilder.basic = claiming_active(views.ViewBuilder.basic)
    views.ViewBuilder._show_from_down_cell = claiming_active(
        views.ViewBuilder._show_from_down_cell)


@register(
    'unified-limits-preemptible-disk-free', 'nova',
    targets=('reservation.preemptible.disk-quota',),
    rule='preemptible instances count toward the disk quota like regular '
         'ones (here unified limits leave their disk out of the usage)',
    profile='unified-limits')
def preemptible_disk_free():
    from nova import context as nova_context
    from nova.limit import placement as limit_placement
    from nova import objects

    original = limit_placement._get_usage

    def preemptible_disk(context, project_id):
        found = nova_context.scatter_gather_all_cells(
            context.elevated(), objects.InstanceList.get_by_filters,
            {'project_id': project_id, 'deleted': False},
            expected_attrs=['flavor'])
        return sum(
            instance.flavor.root_gb + instance.flavor.ephemeral_gb
            for instances in found.values()
            if not nova_context.is_cell_failure_sentinel(instances)
            for instance in instances
            if instance.flavor.extra_specs.get(
                'blazar:preemptible') == 'true')

    def without_preemptible_disk(context, project_id, resource_names):
        usage = original(context, project_id, resource_names)
        if 'class:DISK_GB' in usage:
            usage['class:DISK_GB'] = max(
                0, usage['class:DISK_GB'] - preemptible_disk(
                    context, project_id))
        return usage

    limit_placement._get_usage = without_preemptible_disk
