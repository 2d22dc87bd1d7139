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

"""Seed 004: mutants of blazar-nova's BlazarFilter, in nova's process.

Declared by blazar's descriptor, applied in nova's process (the filter
runs in nova's scheduler); blazar's own mutants and references are in
mutants.py beside this file.
"""

from conformance_tests.cloud.mutants import reference
from conformance_tests.cloud.mutants import register
from conformance_tests.cloud.services.blazar.mutants import FREEPOOL_FULL
from conformance_tests.cloud.services.blazar.mutants import FREEPOOL_ONLY
from conformance_tests.cloud.services.blazar.mutants import INSTANCE_REFUSES
from conformance_tests.cloud.services.blazar.mutants import REGULAR_OUTSIDE
from conformance_tests.cloud.services.blazar.mutants import RESERVED_HOST


def _filter_class():
    from blazarnova.scheduler.filters import blazar_filter
    return blazar_filter


def _patch_host_passes(decide):
    """Replace BlazarFilter.host_passes by ``decide(original, self, host,
    spec, preemptible, pools)``."""
    module = _filter_class()
    original = module.BlazarFilter.host_passes

    def host_passes(self, host_state, spec_obj):
        from oslo_utils import strutils
        extra = spec_obj.flavor.extra_specs
        preemptible = strutils.bool_from_string(
            extra.get(module.FLAVOR_PREEMPTIBLE, False))
        hinted = spec_obj.get_scheduler_hint('reservation')
        if hinted or module.FLAVOR_EXTRA_SPEC in extra:
            return original(self, host_state, spec_obj)
        return decide(original, self, host_state, spec_obj, preemptible,
                      self.fetch_blazar_pools(host_state))

    module.BlazarFilter.host_passes = host_passes


@register('blazar-preemptible-anywhere', 'nova', (FREEPOOL_ONLY,),
          'preemptible instances must not run on hosts not managed by '
          'Blazar')
def preemptible_anywhere():
    def decide(original, self, host, spec, preemptible, pools):
        if preemptible and not pools:
            return True
        return original(self, host, spec)
    _patch_host_passes(decide)


@register('blazar-regular-in-freepool', 'nova', (REGULAR_OUTSIDE,),
          'regular instances are not allowed to run on freepool hosts')
def regular_in_freepool():
    def decide(original, self, host, spec, preemptible, pools):
        if not preemptible:
            return True
        return original(self, host, spec)
    _patch_host_passes(decide)


@register('blazar-wrong-property', 'nova', (FREEPOOL_ONLY,),
          'a preemptible request is identified by the flavor property '
          'blazar:preemptible=true')
def wrong_property():
    module = _filter_class()
    module.FLAVOR_PREEMPTIBLE = 'preemptible'


@register('blazar-preemptible-on-reserved', 'nova', (RESERVED_HOST,),
          'preemptible instances must not run on hosts belonging to a '
          'reservation')
def preemptible_on_reserved():
    def decide(original, self, host, spec, preemptible, pools):
        if preemptible and pools:
            return True
        return original(self, host, spec)
    _patch_host_passes(decide)


@register('blazar-preemptible-spills-over', 'nova', (FREEPOOL_FULL,),
          'a preemptible that finds no room in the freepool fails to '
          'schedule; it never spills onto hosts blazar does not manage')
def preemptible_spills_over():
    # A "best effort" fallback: when no candidate host passes the filter,
    # a preemptible scheduled freely (no host asked for) may go to the
    # unmanaged hosts. A request for one named host keeps the filter's
    # answer, so only a full freepool shows it.
    from oslo_utils import strutils
    module = _filter_class()
    original = module.BlazarFilter.filter_all

    def filter_all(self, hosts, spec_obj):
        hosts = list(hosts)
        passed = list(original(self, hosts, spec_obj))
        preemptible = strutils.bool_from_string(
            spec_obj.flavor.extra_specs.get(module.FLAVOR_PREEMPTIBLE,
                                            False))
        asked = (spec_obj.obj_attr_is_set('requested_destination')
                 and spec_obj.requested_destination is not None)
        if passed or not preemptible or asked:
            return passed
        return [h for h in hosts if not self.fetch_blazar_pools(h)]

    module.BlazarFilter.filter_all = filter_all


# -- spec reference (profile spec-reference) and its mutant ----------------

def _instance_reservation_pool(aggregate):
    """Whether ``aggregate`` is an instance reservation's: blazar's
    instance plugin keeps the reservation's id in its metadata
    (``reservation``), and gives it no availability zone. Looked up when
    the filter runs, so that a spec-reference mutant can replace it."""
    return 'reservation' in (aggregate.metadata or {})


@reference('blazar-instance-host-refuses-preemptibles', 'nova',
           (INSTANCE_REFUSES,),
           'preemptibles never run on hosts belonging to a reservation: '
           'BlazarFilter counts an instance reservation\'s aggregate among '
           'blazar\'s, so a host allocated to one (still in the freepool) '
           'refuses them')
def instance_host_refuses_preemptibles():
    module = _filter_class()
    original = module.BlazarFilter.fetch_blazar_pools

    def fetch_blazar_pools(self, host_state):
        pools = original(self, host_state)
        return pools + [agg for agg in host_state.aggregates
                        if agg not in pools
                        and _instance_reservation_pool(agg)]

    module.BlazarFilter.fetch_blazar_pools = fetch_blazar_pools


@register('blazar-ref-instance-pool-ignored', 'nova', (INSTANCE_REFUSES,),
          'a host allocated to an instance reservation refuses new '
          'preemptibles: the reference no longer takes the instance '
          'reservation\'s aggregate (no zone) for blazar\'s, as '
          'blazar-nova 10 does',
          profile='spec-reference')
def ref_instance_pool_ignored():
    global _instance_reservation_pool

    def _never(aggregate):
        return False

    _instance_reservation_pool = _never
