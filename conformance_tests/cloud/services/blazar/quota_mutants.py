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

"""Seed 004: mutants of nova's quota counting of preemptibles, in nova's
process.

The spec: "preemptible instances will count towards the instances,
vCPUs, memory and disk of regular instances in Nova quotas". Nova counts
them today because it knows nothing of preemptibles; a nova that learnt
to tell them apart (by their flavor's ``blazar:preemptible``, the
property blazar-nova's filter reads) could stop counting them, and
reservation.preemptible.quota must catch that. Declared by blazar's
descriptor (the rule is seed 004's), applied in nova's process like
filter_mutants.py; seed 001's quota mutants are in nova's own folder.
"""

from conformance_tests.cloud.mutants import register

QUOTA = 'reservation.preemptible.quota'
PREEMPTIBLE = 'blazar:preemptible'


def _preemptible_usage(context, project_id):
    """[(user_id, vcpus, memory_mb)] of the project's servers whose flavor
    has blazar:preemptible=true, from every cell that answers."""
    from nova import context as nova_context
    from nova import objects
    from oslo_utils import strutils

    def found(cctxt):
        return [(inst.user_id, inst.flavor.vcpus, inst.flavor.memory_mb)
                for inst in objects.InstanceList.get_by_filters(
                    cctxt, {'project_id': project_id, 'deleted': False},
                    expected_attrs=['flavor'])
                if strutils.bool_from_string(
                    inst.flavor.extra_specs.get(PREEMPTIBLE, False))]

    usage = []
    for answer in nova_context.scatter_gather_skip_cell0(
            context, found).values():
        if not nova_context.is_cell_failure_sentinel(answer):
            usage.extend(answer)
    return usage


def _not_counting_preemptibles(resources):
    """Make nova's instances/cores/ram counter leave out preemptibles from
    the usage of ``resources`` (of 'instances', 'cores', 'ram')."""
    from nova import quota

    def uncounted(count):
        def count_as_dict(context, project_id, user_id=None):
            counts = count(context, project_id, user_id=user_id)
            for owner, vcpus, ram in _preemptible_usage(context, project_id):
                less = {'instances': 1, 'cores': vcpus, 'ram': ram}
                scopes = ['project'] + (['user'] if owner == user_id else [])
                for scope in scopes:
                    found = counts.get(scope, {})
                    for name in resources:
                        if name in found:
                            found[name] = max(0, found[name] - less[name])
            return counts
        return count_as_dict

    # instances, cores and ram share one counter, called for whichever of
    # them a check or a usage report asks first.
    for name in ('instances', 'cores', 'ram'):
        resource = quota.QUOTAS._resources[name]
        resource.count_as_dict = uncounted(resource.count_as_dict)


@register('nova-preemptibles-not-counted', 'nova', (QUOTA,),
          'preemptible instances count toward the instances quota like '
          'regular instances: nova leaves a blazar:preemptible flavor\'s '
          'servers out of the instance count')
def preemptibles_not_counted():
    _not_counting_preemptibles(('instances',))


@register('nova-preemptible-cores-ram-not-counted', 'nova', (QUOTA,),
          'preemptible instances count toward the vCPU and memory quotas: '
          'nova counts them as instances but leaves their cores and RAM '
          'out')
def preemptible_cores_ram_not_counted():
    _not_counting_preemptibles(('cores', 'ram'))
