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

"""What a cloud holds, of every kind of object the suite touches.

    python -m conformance_tests.inventory.listing TEMPEST_CONF OUT.json

A run must leave the cloud as it found it, also when its tests fail:
`conformance run --inventory` takes this inventory before and after the
run and reports every difference. Objects are listed by id, and the
state a test may change in place by id and value (an aggregate's hosts
and metadata, a provider's inventories, aggregates and traits, a blazar
host's extra capabilities), so a change left behind shows as one entry
removed and one added. Needs admin credentials in the tempest.conf; a
service the cloud does not offer is not listed.
"""

from concurrent import futures
import json
import sys

# One microversion for every compute listing: server groups of the
# soft-(anti-)affinity policies exist from 2.15 (nova cannot show one in
# an older view).
COMPUTE_MICROVERSION = '2.15'
# GET /resource_providers/{uuid}/aggregates answers from 1.1; its body
# names the generation from 1.19, which nothing here reads.
PLACEMENT_MICROVERSION = 'placement 1.19'


# Every kind take() may list (a mutant's ``leaves`` names some of them).
KINDS = ('servers', 'server groups', 'flavors', 'aggregates',
         'aggregate hosts', 'aggregate metadata', 'users', 'projects',
         'images', 'resource providers', 'provider inventories',
         'provider aggregates', 'provider traits', 'resource classes',
         'traits', 'clusters', 'clustering policies', 'clustering profiles',
         'leases', 'blazar hosts')


def take(ctx):
    """{kind: set of entries} for the cleanup context ``ctx``.

    Each service is listed in a thread of its own: the listings are
    independent reads of different services, each of which may answer
    one request at a time (the embedded cloud's do), so side by side
    they take about as long as the slowest service alone (senlin's three
    lists, about 0.3 s of an inventory's 0.8 s, 2026-11-29)."""
    listers = [lister for needs, lister in (
        ('servers_client', _compute),
        ('users_client', _identity),
        ('images_client', _images),
        ('placement_client', _placement),
        ('clustering_client', _clustering),
        ('leases_client', _leases),
        ('hosts_client', _blazar_hosts)) if getattr(ctx, needs) is not None]
    found = {}
    if not listers:
        return found
    with futures.ThreadPoolExecutor(len(listers)) as pool:
        for part in pool.map(lambda lister: lister(ctx), listers):
            found.update(part)
    return found


def _identity(ctx):
    return {
        'users': {u['id'] for u in ctx.users_client.list_users()['users']},
        'projects': {p['id'] for p in (
            ctx.projects_client.list_projects()['projects'])}}


def _images(ctx):
    return {'images': {i['id'] for i in (
        ctx.images_client.list_images()['images'])}}


def _clustering(ctx):
    client = ctx.clustering_client
    return {
        'clusters': {c['id'] for c in client.list_clusters(
            global_project=True)},
        'clustering policies': {p['id'] for p in (
            client.list_policies(global_project=True))},
        'clustering profiles': {p['id'] for p in (
            client.list_profiles(global_project=True))}}


def _leases(ctx):
    return {'leases': {lease['id'] for lease in (
        ctx.leases_client.list_leases()['leases'])}}


def _blazar_hosts(ctx):
    entries = set()
    for host in ctx.hosts_client.list_hosts()['hosts']:
        entries |= {'%s %s=%s' % (host['id'], k, v)
                    for k, v in sorted(host.items())
                    if k not in ('updated_at',)}
    return {'blazar hosts': entries}


def _compute(ctx):
    """Raw listings, not Tempest's clients' methods: those check each body
    against Tempest's schema, and a mutant cloud (one that shows another
    view of a server group, say) must still be listed."""
    client = ctx.servers_client
    aggregates = _list(client, 'os-aggregates')['aggregates']
    return {
        'servers': {s['id'] for s in _list(
            client, 'servers?all_tenants=1')['servers']},
        'server groups': {g['id'] for g in _list(
            client, 'os-server-groups?all_projects=1')['server_groups']},
        'flavors': {f['id'] for f in _list(
            client, 'flavors?is_public=None')['flavors']},
        'aggregates': {a['id'] for a in aggregates},
        'aggregate hosts': {'%s host %s' % (a['name'], host)
                            for a in aggregates for host in a['hosts']},
        'aggregate metadata': {'%s %s=%s' % (a['name'], k, v)
                               for a in aggregates
                               for k, v in a['metadata'].items()},
    }


def _list(client, url):
    headers = client.get_headers()
    headers['OpenStack-API-Version'] = 'compute %s' % COMPUTE_MICROVERSION
    headers['X-OpenStack-Nova-API-Version'] = COMPUTE_MICROVERSION
    _, body = client.get(url, headers=headers)
    return json.loads(body)


def _placement(ctx):
    client = ctx.placement_client
    found = {'resource providers': set(), 'provider inventories': set(),
             'provider aggregates': set(), 'provider traits': set()}
    for provider in client.list_providers():
        uuid = provider['uuid']
        found['resource providers'].add(uuid)
        base = 'resource_providers/%s' % uuid
        inventories = _get(client, base + '/inventories')['inventories']
        found['provider inventories'] |= {
            '%s %s=%s' % (uuid, rc, inv['total'])
            for rc, inv in inventories.items()}
        found['provider aggregates'] |= {
            '%s %s' % (uuid, agg) for agg in _get(
                client, base + '/aggregates')['aggregates']}
        found['provider traits'] |= {
            '%s %s' % (uuid, trait) for trait in _get(
                client, base + '/traits')['traits']}
    found['resource classes'] = {rc['name'] for rc in (
        client.list_resource_classes())}
    found['traits'] = set(client.list_traits())
    return found


def _get(client, url):
    headers = client.get_headers()
    headers['OpenStack-API-Version'] = PLACEMENT_MICROVERSION
    _, body = client.get(url, headers=headers)
    return json.loads(body)


def differences(before, after):
    """{kind: {'added': [...], 'removed': [...]}} of every kind that
    changed (a kind listed only once counts as changed too)."""
    out = {}
    for kind in sorted(set(before) | set(after)):
        was, now = set(before.get(kind, ())), set(after.get(kind, ()))
        if kind not in before or kind not in after or was != now:
            out[kind] = {'added': sorted(now - was),
                         'removed': sorted(was - now)}
    return out


def size(found):
    return sum(len(v) for v in found.values())


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print('usage: python -m conformance_tests.inventory.listing '
              'TEMPEST_CONF OUT.json', file=sys.stderr)
        return 2
    from conformance_tests.cleanup import context
    from conformance_tests.cleanup import kinds
    try:
        ctx = context.from_conf(context.load_conf(argv[0]))
        found = take(ctx)
    except context.ContextError as e:
        print('inventory: %s' % e, file=sys.stderr)
        return 2
    except Exception as e:  # an API answer: one line, no traceback
        print('inventory: %s: %s' % (type(e).__name__, kinds.one_line(e)),
              file=sys.stderr)
        return 2
    with open(argv[1], 'w') as f:
        json.dump({k: sorted(v) for k, v in found.items()}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
