"""The order leftovers go in, and the one-line summary.

Each kind is listed right before it is removed, so a cell brought back
first shows its servers, and a server gone first frees its group, flavor
and project.
"""

from conformance_tests.cleanup import cells
from conformance_tests.cleanup import clustering
from conformance_tests.cleanup import compute
from conformance_tests.cleanup import identity
from conformance_tests.cleanup import kinds
from conformance_tests.cleanup import placement
from conformance_tests.cleanup import reservation

# (kind, the context attribute it needs, the service it lives in)
ORDER = (
    (cells.Cells(), 'fault', None),
    # senlin first: deleting a cluster deletes its servers, and a policy
    # or profile in use cannot go. Optional (seed 002 only), so a cloud
    # without it is not reported as "not searched".
    (clustering.Clusters(), 'clustering_client', None),
    (clustering.Policies(), 'clustering_client', None),
    (clustering.Profiles(), 'clustering_client', None),
    # Ending a lease gives its host back (and deletes its servers).
    # (Service None: most clouds have no blazar; nothing to say then.)
    (reservation.Leases(), 'leases_client', None),
    (compute.Servers(), 'servers_client', 'nova'),
    (compute.ServerGroups(), 'server_groups_client', 'nova'),
    (reservation.Hosts(), 'hosts_client', None),
    (compute.Flavors(), 'flavors_client', 'nova'),
    (compute.Aggregates(), 'aggregates_client', 'nova'),
    (compute.Quotas(), 'quotas_client', 'nova'),
    (identity.Users(), 'users_client', 'keystone'),
    (identity.Projects(), 'projects_client', 'keystone'),
    (placement.Providers(), 'placement_client', 'placement'),
    (placement.ResourceClasses(), 'placement_client', 'placement'),
    (placement.Traits(), 'placement_client', 'placement'),
)


def run(ctx, dry_run=False, say=print, order=ORDER):
    """Find (and unless dry_run remove) every leftover; return errors."""
    counts, errors, found_all, skipped = [], [], [], set()
    for kind, needs, service in order:
        if getattr(ctx, needs, None) is None:
            if service:
                skipped.add(service)
            continue
        try:
            found = kind.find(ctx)
        except Exception as e:
            errors.append('could not list %s: %s' % (
                kind.plural, kinds.one_line(e)))
            continue
        found_all += [(kind, item) for item in found]
        if dry_run:
            counts.append((kind, len(found)))
            continue
        failed = kind.remove(ctx, found)
        errors += failed
        counts.append((kind, len(found) - len(failed)))
    if dry_run:
        for kind, item in found_all:
            say('  %s %s' % (kind.singular, item.label))
    say(summary(counts, dry_run, skipped, getattr(ctx, 'cell', None)))
    return errors


def summary(counts, dry_run=False, skipped=(), cell=None):
    parts = ['%s' % kind.count(n) for kind, n in counts
             if not isinstance(kind, cells.Cells)]
    line = '%s %s' % ('would remove' if dry_run else 'removed',
                      ', '.join(parts) or 'nothing')
    brought = [n for kind, n in counts if isinstance(kind, cells.Cells)]
    if brought and cell:
        line += '; %s' % (
            'would bring cell %s up' if dry_run else 'cell %s is up'
            if brought[0] else 'cell %s may still be down') % cell
    if skipped:
        line += ' (not searched, not in the catalog: %s)' % ', '.join(
            sorted(skipped))
    return line
