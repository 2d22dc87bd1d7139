"""`conformance run`, `mutants` and `report`."""

from concurrent import futures
import configparser
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time

from conformance_tests.cloud import client_files
from conformance_tests.cloud import launcher
from conformance_tests.cloud import mutants as mutants_mod
from conformance_tests.cloud import packages
from conformance_tests.cloud import profiles
from conformance_tests.cloud import secrets
from conformance_tests.cloud import services
from conformance_tests.cmd import preflight as preflight_cmd
from conformance_tests.cmd import tempest_runner
from conformance_tests.common import ui
from conformance_tests.report import applicability
from conformance_tests.report import build
from conformance_tests.report import guidelines
from conformance_tests.report import mutants as mutant_rules
from conformance_tests.report import results as results_mod

SUBUNIT = 'results.subunit'
DEFAULT_WORKDIR = '.conformance'
# Ports between two side-by-side mutant clouds' port bases: more than
# every listener of every service needs.
SLOT_PORTS = 20


def default_parallel():
    """Mutant clouds side by side: one per core. One mutant cloud keeps
    a 2-core machine only 50% busy (it mostly waits on its own
    requests); two side by side keep it 87% busy and take the mutant run
    from 601 s to 354 s."""
    return max(1, os.cpu_count() or 1)


class CommandError(Exception):
    """One-line, user-fixable problem."""


def add_parsers(sub, common, cloud_options):
    run = sub.add_parser('run', help='run the whole suite and report')
    common(run)
    cloud_options(run)
    run.add_argument('--tempest-conf', help=(
        'run against the cloud this tempest.conf describes instead of '
        'starting the embedded cloud (skips are then allowed)'))
    run.add_argument('--concurrency', type=int, default=2)
    run.add_argument('--inventory', action='store_true', help=(
        'list every object of the kinds the suite touches before and '
        'after the run (needs admin); any difference fails the run'))
    _scope_options(run)
    _require_option(run)
    run.set_defaults(func=cmd_run)

    mut = sub.add_parser('mutants', help=(
        'run the suite against every mutant of the embedded cloud; fail if '
        'one survives'))
    common(mut)
    cloud_options(mut)
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
    _scope_options(mut)
    mut.set_defaults(func=cmd_mutants)

    rep = sub.add_parser('report', help=(
        'build the report from a subunit stream (default: the last run)'))
    common(rep)
    rep.add_argument('--subunit', help='subunit v2 file (default: '
                                       '<workdir>/%s)' % SUBUNIT)
    rep.add_argument('--target', help='what the tests ran against')
    rep.add_argument('--allow-skips', action='store_true',
                     help='partial capabilities do not fail the report')
    rep.add_argument('--profile', default=profiles.DEFAULT,
                     choices=profiles.names(),
                     help='whose expectations to judge by (default: '
                          '%(default)s)')
    _scope_options(rep)
    # A rebuilt report judges not-applicable as the gate's run did.
    _require_option(rep)
    rep.set_defaults(func=cmd_report)

    sel = sub.add_parser('select', help=(
        'print the Tempest regex of a scope (derived from guidelines/)'))
    _scope_options(sel)
    sel.set_defaults(func=cmd_select)


def _scope_options(parser):
    parser.add_argument('--seed', action='append', metavar='NNN', help=(
        'only the capabilities of this seed, e.g. 003 (repeatable; '
        'default: every seed)'))
    parser.add_argument('--capability', action='append', metavar='ID',
                        help='only this capability (repeatable)')


def _require_option(parser):
    parser.add_argument('--require', action='append', metavar='WHAT',
                        help=(
                            'a gate that must have this: a service ([service_'
                            'available] name or API type, e.g. senlin or '
                            'clustering), admin or microversion; a '
                            'capability not-applicable for want of it is '
                            'then a failure (repeatable; tempest.conf\'s '
                            '[conformance] require adds to it)'))


def requirements(words, tempest_conf=None):
    """What the run must have: ``words`` (--require) and tempest.conf's
    [conformance] require, API types translated to [service_available]
    names. Words, not the parsed arguments: each command passes what its
    own parser defines."""
    wanted = list(words or [])
    if tempest_conf:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.read(tempest_conf)
        wanted += [w.strip() for w in parser.get(
            'conformance', 'require', fallback='').split(',') if w.strip()]
    try:
        return applicability.normalise_requirements(wanted)
    except ValueError as e:
        raise CommandError(str(e))


class Scope(object):
    """What a run covers: capability ids and the tests behind them."""

    def __init__(self, args):
        try:
            self.capabilities = guidelines.load_all()
            self.ids = guidelines.select(self.capabilities, args.seed,
                                         args.capability)
        except guidelines.GuidelineError as e:
            raise CommandError(str(e))
        self.test_ids = guidelines.test_ids(self.capabilities, self.ids)

    def regex(self, ids=None):
        try:
            return tempest_runner.selection_regex(
                guidelines.test_ids(self.capabilities, ids or self.ids))
        except tempest_runner.RunError as e:
            raise CommandError(str(e))


def cmd_select(args):
    print(Scope(args).regex())
    return 0


def embedded_versions():
    """{distribution: version} of each upstream service the embedded cloud
    runs and of Tempest: the pinned one, or (what a series does not pin,
    e.g. senlin in an older series) the installed one."""
    try:
        pins = packages.pins()
    except ValueError as e:
        raise CommandError(str(e))
    dists = [s.distribution for s in services.all() if s.distribution]
    return {dist: pins.get(packages._norm(dist)) or _installed(dist)
            for dist in dists + ['tempest']}


def _embedded_target(profile):
    """What the run judged: each upstream service at its version; an
    older series (`--release`) is named first."""
    series = _other_release()
    return 'embedded cloud, %sprofile %s (%s)' % (
        'release %s, ' % series if series else '', profile, ', '.join(
            '%s %s' % item for item in embedded_versions().items()))


def _installed(dist):
    version = packages.installed_version(dist)
    return '.'.join(str(n) for n in version) if version else '?'


def _judged_release(args):
    """The older series whose expectations judge the run, or None: the
    embedded cloud's (--release re-ran us in its virtualenv), or what
    --release says a vendor's cloud (--tempest-conf) runs."""
    from conformance_tests.cloud import releases
    if args.tempest_conf:
        series = getattr(args, 'release', None)
        return None if series in (None, releases.CURRENT) else series
    return _other_release()


def _other_release():
    """The series the cloud runs, when it is not the current one."""
    from conformance_tests.cloud import releases
    series = packages.release()
    return None if series == releases.CURRENT else series


def cmd_run(args):
    started = time.monotonic()
    scope = Scope(args)
    workdir = args.workdir
    if args.profile != profiles.DEFAULT and workdir == DEFAULT_WORKDIR:
        workdir = os.path.join(workdir, args.profile)
    workdir = os.path.abspath(workdir)
    os.makedirs(workdir, exist_ok=True)
    subunit_path = os.path.join(workdir, SUBUNIT)
    findings = None
    if args.tempest_conf:
        _check_tempest_conf(args.tempest_conf)
        # Before any test: an unfit cloud or conf is one line, exit 2.
        findings = preflight_cmd.run_preflight(
            args.tempest_conf, workdir, release=_judged_release(args))
    required = requirements(args.require, args.tempest_conf)
    ui.say('scope: %d of %d capabilities, %d tests' % (
        len(scope.ids), len(scope.capabilities), len(scope.test_ids)))
    try:
        if args.tempest_conf:
            workspace = _vendor_workspace(workdir, args.tempest_conf)
            target = 'cloud of %s' % os.path.abspath(args.tempest_conf)
            with _Inventory(args.inventory, workspace, workdir) as inventory:
                results = tempest_runner.run(workspace, subunit_path,
                                             ui.say, args.concurrency,
                                             regex=scope.regex())
        else:
            target = _embedded_target(args.profile)
            cloud = launcher.EmbeddedCloud(
                workdir, port_base=args.port_base,
                **profiles.settings(args.profile))
            listing = tempest_runner.Listing()
            cloud.up(while_starting=lambda: listing.prefetch(
                cloud.workspace))
            try:
                with _Inventory(args.inventory, cloud.workspace,
                                workdir) as inventory:
                    ui.say('running the suite through Tempest')
                    results = tempest_runner.run(
                        cloud.workspace, subunit_path, ui.say,
                        args.concurrency, regex=scope.regex(),
                        listing=listing)
            finally:
                cloud.down()
    except (launcher.CloudError, tempest_runner.RunError) as e:
        raise CommandError(str(e))
    return _report(workdir, results, target, scope,
                   allow_skips=bool(args.tempest_conf),
                   duration=time.monotonic() - started,
                   profile=args.profile, required=required,
                   inventory=inventory.differences, preflight=findings,
                   release=_judged_release(args),
                   versions=None if args.tempest_conf else embedded_versions())


def _vendor_workspace(workdir, tempest_conf):
    _check_tempest_conf(tempest_conf)
    workspace = os.path.join(workdir, 'vendor-workspace')
    try:
        client_files.ensure_workspace(workdir, workspace)
    except client_files.WorkspaceError as e:
        raise CommandError(str(e))
    # It holds the cloud's passwords: the copy is the owner's alone.
    with open(tempest_conf) as src, secrets.private_open(os.path.join(
            workspace, 'etc', 'tempest.conf')) as dst:
        shutil.copyfileobj(src, dst)
    return workspace


def _check_tempest_conf(path):
    """Refuse, in one line, a file that cannot be a tempest.conf."""
    if not os.path.isfile(path):
        raise CommandError('--tempest-conf %s: no such file' % path)
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(path)
    except (configparser.Error, UnicodeDecodeError) as e:
        raise CommandError('--tempest-conf %s is not a tempest.conf (INI) '
                           'file: %s' % (path, str(e).splitlines()[0]))
    if not parser.has_section('identity') and not parser.has_section('auth'):
        raise CommandError('--tempest-conf %s is not a tempest.conf: it has '
                           'no [identity] or [auth] section' % path)


class _Inventory(object):
    """With ``wanted``, the cloud's inventory (tools/inventory.py) before
    and after the block; ``differences`` is None without it."""

    def __init__(self, wanted, workspace, workdir):
        self.wanted = wanted
        self.conf = os.path.join(workspace, 'etc', 'tempest.conf')
        self.path = os.path.join(workdir, 'inventory-%s.json')
        self.differences = None

    def _take(self, when):
        path = self.path % when
        done = subprocess.run(
            [sys.executable, '-m', 'conformance_tests.tools.inventory',
             self.conf, path], capture_output=True, text=True,
            stdin=subprocess.DEVNULL)
        if done.returncode:
            raise CommandError((done.stderr.strip().splitlines() or [
                'inventory exited %d' % done.returncode])[-1])
        with open(path) as f:
            return json.load(f)

    def __enter__(self):
        if self.wanted:
            self.before = self._take('before')
            ui.say('inventory before the run: %d objects of %d kinds' % (
                sum(len(v) for v in self.before.values()), len(self.before)))
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.wanted and exc_type is None:
            from conformance_tests.tools import inventory
            self.differences = inventory.differences(
                self.before, self._take('after'))
            ui.say('inventory after the run: %s' % (
                'as before' if not self.differences else ', '.join(
                    '%s +%d -%d' % (kind, len(d['added']), len(d['removed']))
                    for kind, d in self.differences.items())))


def _report(workdir, results, target, scope, allow_skips, duration=None,
            profile=profiles.DEFAULT, required=(), inventory=None,
            preflight=None, release=None, versions=None):
    caps = build.verdicts(scope.capabilities, results, profile,
                          scope=set(scope.ids), required=required,
                          release=release)
    summary = build.summarise(caps, results, target, allow_skips, duration,
                              required=required, inventory=inventory,
                              release=release)
    summary['profile'] = profile
    if versions:
        # {distribution: version} of the embedded cloud (conformance matrix)
        summary['versions'] = versions
    if preflight:
        summary['preflight'] = preflight
    json_path, md_path, html_path = build.write(workdir, caps, summary)
    print(build.table(caps, summary), flush=True)
    ui.say('report: %s, %s and %s%s' % (
        json_path, md_path, html_path,
        ' (%.0f s in all)' % duration if duration else ''))
    return 0 if summary['as_expected'] else 1


def cmd_report(args):
    scope = Scope(args)
    workdir = os.path.abspath(args.workdir)
    path = args.subunit or os.path.join(workdir, SUBUNIT)
    if not os.path.exists(path):
        raise CommandError('no results at %s: run `conformance run` first '
                           'or pass --subunit' % path)
    try:
        results = results_mod.read_file(path)
    except results_mod.NotSubunit as e:
        raise CommandError(str(e))
    selection = _last_selection(workdir)
    if selection:
        results = results_mod.attribute_class_outcomes(results, selection)
    target = args.target
    allow_skips = args.allow_skips
    required = args.require or []
    release = versions = None
    if not target:
        try:
            with open(os.path.join(workdir, 'report.json')) as f:
                previous = json.load(f)['summary']
        except (OSError, ValueError, KeyError):
            raise CommandError('say what the tests ran against with --target')
        target = previous['target']
        release = previous.get('release')
        versions = previous.get('versions')
        allow_skips = allow_skips or previous.get('skips_allowed', False)
        required = required + previous.get('required', [])
    return _report(workdir, results, target, scope, allow_skips=allow_skips,
                   profile=args.profile, required=requirements(required),
                   release=release, versions=versions)


def _last_selection(workdir):
    """The tests the workdir's last run selected (its Tempest workspace
    keeps the list), or None."""
    found = [os.path.join(workdir, ws, tempest_runner.SELECTED)
             for ws in ('workspace', 'vendor-workspace')]
    found = [p for p in found if os.path.exists(p)]
    if not found:
        return None
    with open(max(found, key=os.path.getmtime)) as f:
        return [line.strip() for line in f if line.strip()]


def cmd_mutants(args):
    known = mutants_mod.all_mutants()
    if args.list:
        for m in known:
            print('%-34s %-10s %s [targets: %s]%s' % (
                m.name, m.service, m.rule, ', '.join(m.targets),
                ' [profile: %s]' % m.profile if m.profile else ''))
        return 0
    scope = Scope(args)
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
    release = _other_release()
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
    # Every mutant cloud forks from the same zygotes: each process's
    # upstream imports are paid once per run, not once per mutant.
    with launcher.start_zygotes(os.path.join(workdir, 'zygotes')) as forkers:
        return _run_on_slots(args, scope, chosen, workdir, forkers, release)


def _run_on_slots(args, scope, chosen, workdir, forkers, release=None):
    slots = queue.Queue()
    for k in range(min(args.parallel, len(chosen)) or 1):
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
                release)
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
                forkers=None, release=None):
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
    cloud = launcher.EmbeddedCloud(mutant_dir, port_base=port_base,
                                   mutant=mutant.name, say=lambda m: None,
                                   zygotes=forkers,
                                   **profiles.settings(profile))
    listing = listing or tempest_runner.Listing()
    try:
        cloud.up(while_starting=lambda: listing.prefetch(cloud.workspace))
        # Where a mutant's time goes: its cloud's start, or its tests.
        up = time.monotonic()
        try:
            with _Inventory(args.inventory, cloud.workspace,
                            mutant_dir) as inventory:
                results = tempest_runner.run(
                    cloud.workspace, os.path.join(
                        mutant_dir, 'mutant-%s.subunit' % mutant.name),
                    ui.say, args.concurrency, quiet=True,
                    regex=scope.regex(run_ids), listing=listing)
        finally:
            tests_done = time.monotonic()
            cloud.down(quiet=True)
    except (launcher.CloudError, tempest_runner.RunError) as e:
        raise CommandError('mutant %s: %s' % (mutant.name, e))
    return dict(mutant_rules.mutant_outcome(
        mutant, scope.capabilities, results, judged,
        time.monotonic() - started, profile=profile, release=release),
        profile=profile,
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
