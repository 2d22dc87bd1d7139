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

"""Placement: the providers, resource classes and traits topologies made.

Providers go deepest first (placement refuses to delete a parent with
children); classes and traits after them (placement refuses to delete a
class still in an inventory or a trait still on a provider).
"""

from conformance_tests.cleanup import kinds


def _depth(provider, by_uuid):
    depth, parent = 0, provider.get('parent_provider_uuid')
    while parent in by_uuid and depth <= len(by_uuid):
        depth += 1
        parent = by_uuid[parent].get('parent_provider_uuid')
    return depth


class Providers(kinds.Kind):
    singular, plural = 'resource provider', 'resource providers'

    def find(self, ctx):
        everything = ctx.placement_client.list_providers()
        by_uuid = {p['uuid']: p for p in everything}
        ours = [p for p in everything if ctx.names.made(p['name'])]
        ours.sort(key=lambda p: -_depth(p, by_uuid))
        return [kinds.Item(p['uuid'], '%s (%s)' % (p['name'], p['uuid']), p)
                for p in ours]

    def remove_one(self, ctx, item):
        ctx.placement_client.delete_provider(item.id)


class ResourceClasses(kinds.Kind):
    singular, plural = 'resource class', 'resource classes'

    def find(self, ctx):
        return [kinds.Item(rc['name'], rc['name'], rc)
                for rc in ctx.placement_client.list_resource_classes()
                if ctx.names.made_custom(rc['name'])]

    def remove_one(self, ctx, item):
        ctx.placement_client.delete_resource_class(item.id)


class Traits(kinds.Kind):
    singular, plural = 'trait', 'traits'

    def find(self, ctx):
        return [kinds.Item(t, t, None)
                for t in ctx.placement_client.list_traits()
                if ctx.names.made_custom(t)]

    def remove_one(self, ctx, item):
        ctx.placement_client.delete_trait(item.id)
