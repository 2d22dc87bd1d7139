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

"""`conformance mutants`: the suite against each mutant of the embedded
cloud (cloud/mutants.py), each in a cloud of its own, side by side; a
mutant is killed only by a failed assertion of its targets' tests
(report/mutants.py), and the run fails if one survives or its tests
leave objects behind (--inventory)."""

from concurrent import futures
import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time

from conformance_tests.cloud import launcher
from conformance_tests.cloud import mutants as mutants_mod
from conformance_tests.cloud import packages
from conformance_tests.cloud import profiles
from conformance_tests.cloud import target as cloud_target
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui
from conformance_tests.inventory import forker as inventory_forker
from conformance_tests.inventory import guard
from conformance_tests.report import mutants as mutant_rules
from conformance_tests.runner import tempest_runner
from conformance_tests.runner import warm_workers

# Ports between two side-by-side mutant clouds' port bases: more than
# every listener of every service needs.
SLOT_PORTS = 20


def default_parallel():
    """Mutant clouds side by side: one per core. One mutant cloud keeps
    a 2-core machine only 50% busy (it mostly waits on its own
    requests); two side by side keep it 87% busy and take the mutant run
    from 601 s to 354 s."""
    return max(1, os.cpu_count() or 1)


def add_parser(sub):
    mut = sub.add_parser('mutants', help=(
        'run the suite against every mutant of the embedded cloud; fail if '
        'one survives'))
    options.workdir(mut)
    options.cloud(mut)
    options.release(mut)
    mut.add_argument('--list', action='store_true',
                     help='list the mutants and exit')
    mut.add_argument('--only', action='append', metavar='NAME',
                     help='run only this mutant (repeatable)')
    mut.add_argument('--matrix', action='store_true', help=(
        'run every in-scope test against each mutant and record which '
        'capabilities it trips (slow); default: only its targets\' tests'))
    mut.add_argument('--concurrency', type=int, default=2)
    mut.add_argument('--inventory', action='store_true', help=(
        'list the mutant cloud\'s objects before and after its tests; '
        'anything its failing tests leave behind fails the run'))
    mut.add_argument('--parallel', type=int, default=default_parallel(),
                     metavar='N', help=(
                         'mutant clouds run side by side, each with its own '
                         'workdir and ports (--port-base + k*%d) (default: '
                         'one per core, here %%(default)s)' % SLOT_PORTS))
    options.scope(mut)
    mut.set_defaults(func=cmd_mutants)


class Mutants(base.Command):
    name = 'mutants'


def cmd_mutants(args):
    known = mutants_mod.all_mutants()
    if args.list:
        for m in known:
            print('%-34s %-10s %s [targets: %s]%s' % (
                m.name, m.service, m.rule, ', '.join(m.targets),
                ' [profile: %s]' % m.profile if m.profile else ''))
        return 0
    scope = options.scope_of(args)
    chosen = mutant_rules.in_scope(known, scope.ids)
    if args.only:
        try:
            chosen = [mutants_mod.get(n) for n in args.only]
        except LookupError as e:
            raise CommandError(str(e))
    if args.parallel < 1:
        raise CommandError('--parallel must be at least 1')
    started = time.monotonic()
    workdir = os.path.abspath(args.workdir)
    release = cloud_target.older_release()
    skipped = _skipped_on_release(args, scope, chosen, release)
    for k, (name, reason) in enumerate(sorted(skipped.items()), 1):
        ui.say('skipped on %s (%d of %d): %s: %s' % (
            release, k, len(skipped), name, reason))
    outcome = _run_mutants(args, scope, [
        m for m in chosen if m.name not in skipped], workdir, release)
    outcome += [mutant_rules.skipped_outcome(m, skipped[m.name])
                for m in chosen if m.name in skipped]
    summary = mutant_rules.summarise(outcome, args.profile, args.matrix,
                                     time.monotonic() - started)
    # Whose expectations judged the kills, today's series too.
    summary['release'] = release or packages.release()
    survived = summary['survived']
    untidy = ['%s (%s)' % (o['name'], mutant_rules.describe_left(
        o['left_behind'])) for o in outcome if o.get('left_behind')]
    path = os.path.join(workdir, 'mutants.json')
    with open(path, 'w') as f:
        json.dump({'mutants': outcome, 'summary': summary}, f, indent=2)
    ui.say('%d mutant%s: %d killed, %d survived%s%s; wrote %s (%.0f s)' % (
        len(outcome), '' if len(outcome) == 1 else 's', summary['killed'],
        len(survived),
        ' (%s)' % ', '.join(survived) if survived else '',
        ', %d skipped on %s' % (len(skipped), release) if skipped else '',
        path, time.monotonic() - started))
    if untidy:
        ui.fail('tests left objects behind under: %s (mutants.json: '
                'left_behind)' % ', '.join(untidy))
    return 1 if survived or untidy else 0


def _skipped_on_release(args, scope, chosen, release):
    """{mutant name: why it cannot run on ``release``} (an older series;
    None: today's, where nothing is skipped): its patch target is not in
    that series' code (cloud/mutant_probe.py), or none of its targets is
    expected there what a kill needs (the series' by_release)."""
    if not release:
        return {}
    skipped = {}
    # Every service's references, for the mutants that run on them.
    for service in sorted({m.service for m in chosen} | {
            r.service for r in mutants_mod.all_references()}):
        probe = subprocess.run(
            [sys.executable, '-m', 'conformance_tests.cloud.mutant_probe',
             service], capture_output=True, text=True)
        lines = probe.stdout.strip().splitlines()
        if probe.returncode or not lines:
            err = probe.stderr.strip().splitlines()
            raise CommandError('cannot probe %s\'s patch targets on %s: %s'
                               % (service, release,
                                  err[-1] if err else 'no output'))
        for name, error in json.loads(lines[-1]).items():
            if error:
                skipped[name] = 'its patch target is not in %s (%s)' % (
                    release, error)
    references = {r.name for r in mutants_mod.all_references()}
    missing_references = sorted(set(skipped) & references)
    by_id = {c['id']: c for c in scope.capabilities}
    for mutant in chosen:
        profile = mutant_rules.mutant_profile(mutant, args.profile)
        if (mutant.name not in skipped and missing_references
                and profiles.is_spec_reference(profile)):
            skipped[mutant.name] = (
                'it runs on the spec reference, and %s is not in %s' % (
                    ', '.join(missing_references), release))
        if mutant.name not in skipped and not mutant_rules.judged_targets(
                mutant, by_id, profile, release):
            skipped[mutant.name] = (
                'no target is expected to %s on %s (guidelines\' '
                'by_release)' % ('fail' if mutant.wrong_reason else 'pass',
                                 release))
    return {name: reason for name, reason in skipped.items()
            if name not in references}


def _run_mutants(args, scope, chosen, workdir, release=None):
    """Each mutant on a free slot (a workdir and a port base of its own);
    outcomes in the order of ``chosen``. After an error no new mutant
    starts."""
    if not chosen:
        return []
    slot_count = min(args.parallel, len(chosen)) or 1
    zygote_dir = os.path.join(workdir, 'zygotes')
    with contextlib.ExitStack() as warm:
        # Imports paid once per run, not once per mutant: every mutant
        # cloud forks from the same zygotes, every mutant's test workers
        # from one warm process, and each slot's inventories from one of
        # its own (inventory/forker.py).
        forkers = warm.enter_context(launcher.start_zygotes(zygote_dir))
        workers = warm.enter_context(warm_workers.WarmWorkers(zygote_dir))
        inventories = {}
        if args.inventory:
            for k in range(slot_count):
                inventories[k] = warm.enter_context(inventory_forker.Forker())
        return _run_on_slots(args, scope, chosen, workdir, forkers, release,
                             slot_count, inventories, workers)


def _run_on_slots(args, scope, chosen, workdir, forkers, release,
                  slot_count, inventories, workers):
    slots = queue.Queue()
    for k in range(slot_count):
        slots.put(k)
    failed = threading.Event()
    listing = tempest_runner.Listing()

    def one(k, mutant):
        if failed.is_set():
            return None
        slot = slots.get()
        try:
            ui.say('mutant %d of %d: %s%s (%s: %s)' % (
                k, len(chosen), mutant.name, ' on the %s profile' %
                mutant.profile if mutant.profile else '',
                'a wrong cause' if mutant.wrong_reason else 'breaks',
                mutant.rule))
            result = _run_mutant(
                args, scope, mutant, os.path.join(workdir, 'mutant-cloud%s' % (
                    '-%d' % slot if slot else '')),
                args.port_base + slot * SLOT_PORTS, listing, forkers,
                release, inventories.get(slot), workers)
            ui.say('  %s: %s' % (mutant.name, _mutant_line(result)))
            return result
        except BaseException:
            failed.set()
            raise
        finally:
            slots.put(slot)

    if slots.qsize() == 1:
        # One at a time in this thread, so Ctrl-C stops the mutant that
        # runs and starts no other.
        return [one(k, m) for k, m in enumerate(chosen, 1)]
    pool = futures.ThreadPoolExecutor(slots.qsize())
    try:
        running = [pool.submit(one, k, m) for k, m in enumerate(chosen, 1)]
        return [f.result() for f in running]
    except BaseException:
        failed.set()  # Ctrl-C or an error: no mutant starts after this
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_mutant(args, scope, mutant, mutant_dir, port_base, listing=None,
                forkers=None, release=None, inventory_process=None,
                workers=None):
    """Run one mutant; killed only by a failed assertion of a test of a
    capability it targets that the clean cloud must pass
    (report/mutants.py)."""
    started = time.monotonic()
    by_id = {c['id']: c for c in scope.capabilities}
    unknown = mutant_rules.unknown_targets(mutant, by_id)
    if unknown:
        raise CommandError('mutant %s targets unknown capabilities: %s' % (
            mutant.name, ', '.join(unknown)))
    profile = mutant_rules.mutant_profile(mutant, args.profile)
    judged = mutant_rules.judged_targets(mutant, by_id, profile, release)
    if not judged:
        raise CommandError('mutant %s: no target is expected to %s in '
                           'profile %s, so nothing can kill it' % (
                               mutant.name, 'fail' if mutant.wrong_reason
                               else 'pass', profile))
    run_ids = scope.ids if args.matrix else mutant.targets
    # Only what the tests it runs call: a service nobody calls costs the
    # start its time and the other slots' cores (doc/bench.md).
    serve = None
    if not args.matrix:
        serve = mutant_rules.cloud_services(mutant, by_id)
    cloud = launcher.EmbeddedCloud(mutant_dir, port_base=port_base,
                                   mutant=mutant.name, say=lambda m: None,
                                   zygotes=forkers, serve=serve,
                                   **profiles.settings(profile))
    listing = listing or tempest_runner.Listing()
    try:
        cloud.up(while_starting=lambda: listing.prefetch(cloud.workspace))
        # Where a mutant's time goes: its cloud's start, or its tests.
        up = time.monotonic()
        try:
            with guard.Guard(args.inventory, cloud.workspace, mutant_dir,
                             forker=inventory_process) as inventory:
                results = tempest_runner.run(
                    cloud.workspace, os.path.join(
                        mutant_dir, 'mutant-%s.subunit' % mutant.name),
                    ui.say, args.concurrency, quiet=True,
                    regex=scope.regex(run_ids), listing=listing,
                    worker_env=workers.env() if workers else None)
        finally:
            tests_done = time.monotonic()
            cloud.down(quiet=True)
    except (launcher.CloudError, tempest_runner.RunError,
            guard.InventoryError, inventory_forker.ForkerError,
            warm_workers.WarmWorkersError) as e:
        raise CommandError('mutant %s: %s' % (mutant.name, e))
    return dict(mutant_rules.mutant_outcome(
        mutant, scope.capabilities, results, judged,
        time.monotonic() - started, profile=profile, release=release),
        profile=profile,
        services=[s.name for s in cloud.services],
        cloud_start_s=round(up - started, 1),
        tests_s=round(tests_done - up, 1),
        left_behind=mutant_rules.left_by_tests(mutant, inventory.differences))


def _mutant_line(outcome):
    if outcome['killed']:
        line = 'killed by %s' % ', '.join(outcome['killed_by'])
        if outcome.get('wrong_reason'):
            line += ' (judged fail, not expected-fail)'
    elif outcome.get('wrong_reason'):
        line = ('SURVIVED: no test of %s failed an assertion outside its '
                'expected-fail signature (the signature also matches this '
                'wrong cause)' % ', '.join(outcome['targets']))
    else:
        line = 'SURVIVED: no test of %s failed an assertion' % ', '.join(
            outcome['targets'])
    if outcome['errors']:
        line += ' (%d test error(s), not kills: %s)' % (
            len(outcome['errors']), '; '.join(outcome['errors'])[:300])
    if outcome.get('left_behind'):
        line += '; LEFT BEHIND: %s' % ', '.join(outcome['left_behind'])
    return line + ' [%.0f s]' % outcome['duration_s']
