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

"""Build a resource-provider topology described in YAML, and remove it.

A topology names resource classes, traits, aggregates and providers
(parents, aggregates, inventories, traits, sharing). Building it gives
every name a per-run identity: resource classes and traits become
CUSTOM_<PREFIX>_<RUN>_<NAME>, providers are named <prefix>-<run>-<name>
and get fresh UUIDs, aggregates get fresh UUIDs. Nothing but CUSTOM_*
resource classes ever gets inventory, so the data cannot attract a real
workload on a vendor's placement. Every creation registers its own removal
with the test, so the topology is removed even when the test fails.
"""

import re
import uuid

from tempest.lib.common.utils import test_utils

SHARING_TRAIT = 'MISC_SHARES_VIA_AGGREGATE'


def _custom_name(prefix, run_id, name):
    token = re.sub(r'[^A-Z0-9_]', '_', ('%s_%s_%s' % (
        prefix, run_id, name)).upper())
    return 'CUSTOM_' + token


class Topology(object):
    """The identities of one built topology, for the file that uses it."""

    def __init__(self):
        self.values = {}          # NAME -> value, for $RUN['NAME'] in YAML
        self.provider_names = {}  # uuid -> topology name

    def add(self, key, value):
        self.values[key.upper()] = value


def value_names(spec):
    """The $RUN names a topology defines, without building it."""
    return ({'RC_' + rc.upper() for rc in spec.get('resource_classes', [])} |
            {'TRAIT_' + t.upper() for t in spec.get('traits', [])} |
            {a.upper() for a in spec.get('aggregates', []) +
             spec.get('absent_aggregates', [])} |
            {p.upper() for p in spec.get('providers', {})})


def build(client, spec, prefix, add_cleanup):
    run_id = uuid.uuid4().hex[:8]
    topo = Topology()
    for rc in spec.get('resource_classes', []):
        full = _custom_name(prefix, run_id, rc)
        client.create_resource_class(full)
        add_cleanup(test_utils.call_and_ignore_notfound_exc,
                    client.delete_resource_class, full)
        topo.add('RC_' + rc, full)
    for trait in spec.get('traits', []):
        full = _custom_name(prefix, run_id, trait)
        client.create_trait(full)
        add_cleanup(test_utils.call_and_ignore_notfound_exc,
                    client.delete_trait, full)
        topo.add('TRAIT_' + trait, full)
    for agg in spec.get('aggregates', []) + spec.get('absent_aggregates', []):
        topo.add(agg, str(uuid.uuid4()))

    for name, rp in spec.get('providers', {}).items():
        rp_uuid = str(uuid.uuid4())
        parent = rp.get('parent')
        created = client.create_provider(
            '%s-%s-%s' % (prefix, run_id, name), rp_uuid,
            topo.values[parent.upper()] if parent else None)
        # Registered after the children's parents: cleanups run in
        # reverse, so children are deleted before their parents.
        add_cleanup(test_utils.call_and_ignore_notfound_exc,
                    client.delete_provider, rp_uuid)
        topo.add(name, rp_uuid)
        topo.provider_names[rp_uuid] = name
        generation = created['generation']
        if rp.get('inventory'):
            generation = client.set_inventories(rp_uuid, generation, {
                topo.values['RC_' + rc.upper()]: total
                for rc, total in rp['inventory'].items()
            })['resource_provider_generation']
        if rp.get('aggregates'):
            generation = client.set_aggregates(rp_uuid, generation, [
                topo.values[a.upper()] for a in rp['aggregates']
            ])['resource_provider_generation']
        traits = [topo.values['TRAIT_' + t.upper()]
                  for t in rp.get('traits', [])]
        if rp.get('shared'):
            traits.append(SHARING_TRAIT)
        if traits:
            client.set_traits(rp_uuid, generation, traits)
    return topo
