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

"""The order leftovers go in, and the one-line summary.

The plan is every registered API's cleanup steps, ordered by stage
(services/api.py's STAGES). Each kind is listed right before it is
removed, so a cell brought back first shows its servers, and a server
gone first frees its group, flavor and project.
"""

from conformance_tests.cleanup import kinds
from conformance_tests import services


def order(apis=None):
    """Every API's cleanup steps (services/api.py's CleanupStep), by
    stage; within a stage, in registration order."""
    steps = [step for api in (services.all() if apis is None else apis)
             for step in api.cleanup]
    return sorted(steps, key=lambda step: step.stage)


def run(ctx, dry_run=False, say=print, steps=None):
    """Find (and unless dry_run remove) every leftover; return errors."""
    counts, errors, found_all, skipped = [], [], [], set()
    for _, kind, needs, _, service in (order() if steps is None else steps):
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
             if not kind.is_fault]
    line = '%s %s' % ('would remove' if dry_run else 'removed',
                      ', '.join(parts) or 'nothing')
    brought = [n for kind, n in counts if kind.is_fault]
    if brought and cell:
        line += '; %s' % (
            'would bring cell %s up' if dry_run else 'cell %s is up'
            if brought[0] else 'cell %s may still be down') % cell
    if skipped:
        line += ' (not searched, not in the catalog: %s)' % ', '.join(
            sorted(skipped))
    return line
