"""`conformance run`, `mutants` and `report`."""

import json
import os
import shutil
import time

from conformance_tests.cloud import client_files
from conformance_tests.cloud import launcher
from conformance_tests.cloud import mutants as mutants_mod
from conformance_tests.cloud import packages
from conformance_tests.cloud import profiles
from conformance_tests.cmd import tempest_runner
from conformance_tests.common import ui
from conformance_tests.report import build
from conformance_tests.report import guidelines
from conformance_tests.report import results as results_mod

SUBUNIT = 'results.subunit'
DEFAULT_WORKDIR = '.conformance'


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
    mut.add_argument('--concurrency', type=int, default=2)
    mut.set_defaults(func=cmd_mutants)

    rep = sub.add_parser('report', help=(
        'build the report from a subunit stream (default: the last run)'))
    common(rep)
    rep.add_argument('--subunit', help='subunit v2 file (default: '
                                       '<workdir>/%s)' % SUBUNIT)
    rep.add_argument('--target', help='what the tests ran against')
    rep.add_argument('--allow-skips', action='store_true',
                     help='skipped capabilities do not fail the report')
    rep.set_defaults(func=cmd_report)


def _embedded_target(profile):
    pins = packages.pins()
    return 'embedded cloud, profile %s (%s)' % (profile, ', '.join(
        '%s %s' % (dist, pins.get(dist, '?'))
        for dist in ('keystone', 'openstack-placement', 'nova', 'tempest')))


def cmd_run(args):
    started = time.monotonic()
    workdir = args.workdir
    if args.profile != profiles.DEFAULT and workdir == DEFAULT_WORKDIR:
        workdir = os.path.join(workdir, args.profile)
    workdir = os.path.abspath(workdir)
    os.makedirs(workdir, exist_ok=True)
    subunit_path = os.path.join(workdir, SUBUNIT)
    try:
        if args.tempest_conf:
            workspace = _vendor_workspace(workdir, args.tempest_conf)
            target = 'cloud of %s' % os.path.abspath(args.tempest_conf)
            results = tempest_runner.run(workspace, subunit_path, ui.say,
                                         args.concurrency)
        else:
            target = _embedded_target(args.profile)
            cloud = launcher.EmbeddedCloud(
                workdir, port_base=args.port_base,
                **profiles.settings(args.profile))
            cloud.up()
            try:
                ui.say('running the suite through Tempest')
                results = tempest_runner.run(cloud.workspace, subunit_path,
                                             ui.say, args.concurrency)
            finally:
                cloud.down()
    except (launcher.CloudError, tempest_runner.RunError) as e:
        raise CommandError(str(e))
    return _report(workdir, results, target,
                   allow_skips=bool(args.tempest_conf),
                   duration=time.monotonic() - started,
                   profile=args.profile)


def _vendor_workspace(workdir, tempest_conf):
    if not os.path.isfile(tempest_conf):
        raise CommandError('--tempest-conf %s: no such file' % tempest_conf)
    workspace = os.path.join(workdir, 'vendor-workspace')
    client_files.ensure_workspace(workdir, workspace)
    shutil.copyfile(tempest_conf, os.path.join(workspace, 'etc',
                                               'tempest.conf'))
    return workspace


def _report(workdir, results, target, allow_skips, duration=None,
            profile=profiles.DEFAULT):
    try:
        caps = build.verdicts(guidelines.load_all(), results, profile)
    except guidelines.GuidelineError as e:
        raise CommandError(str(e))
    summary = build.summarise(caps, results, target, allow_skips, duration)
    json_path, md_path = build.write(workdir, caps, summary)
    print(build.table(caps, summary), flush=True)
    ui.say('report: %s and %s%s' % (
        json_path, md_path,
        ' (%.0f s in all)' % duration if duration else ''))
    return 0 if summary['as_expected'] else 1


def cmd_report(args):
    workdir = os.path.abspath(args.workdir)
    path = args.subunit or os.path.join(workdir, SUBUNIT)
    if not os.path.exists(path):
        raise CommandError('no results at %s: run `conformance run` first '
                           'or pass --subunit' % path)
    with open(path, 'rb') as f:
        results = results_mod.read(f)
    target = args.target
    allow_skips = args.allow_skips
    if not target:
        try:
            with open(os.path.join(workdir, 'report.json')) as f:
                previous = json.load(f)['summary']
        except (OSError, ValueError, KeyError):
            raise CommandError('say what the tests ran against with --target')
        target = previous['target']
        allow_skips = allow_skips or 'embedded' not in target
    return _report(workdir, results, target, allow_skips=allow_skips)


def cmd_mutants(args):
    known = mutants_mod.all_mutants()
    if args.list:
        for m in known:
            print('%-26s %-10s %s' % (m.name, m.service, m.rule))
        return 0
    chosen = known
    if args.only:
        try:
            chosen = [mutants_mod.get(n) for n in args.only]
        except LookupError as e:
            raise CommandError(str(e))
    started = time.monotonic()
    workdir = os.path.abspath(args.workdir)
    mutant_dir = os.path.join(workdir, 'mutant-cloud')
    caps = guidelines.load_all()
    outcome = []
    for k, mutant in enumerate(chosen, 1):
        ui.say('mutant %d of %d: %s (breaks: %s)' % (
            k, len(chosen), mutant.name, mutant.rule))
        cloud = launcher.EmbeddedCloud(mutant_dir, port_base=args.port_base,
                                       mutant=mutant.name,
                                       say=lambda m: None)
        try:
            cloud.up()
            try:
                results = tempest_runner.run(
                    cloud.workspace, os.path.join(
                        mutant_dir, 'mutant-%s.subunit' % mutant.name),
                    ui.say, args.concurrency, quiet=True,
                    regex=mutant.scope)
            finally:
                cloud.down(quiet=True)
        except (launcher.CloudError, tempest_runner.RunError) as e:
            raise CommandError('mutant %s: %s' % (mutant.name, e))
        failing = sorted(r['name'].rsplit('.', 1)[-1]
                         for r in results.values() if r['status'] == 'fail')
        failing_ids = set(k for k, r in results.items()
                          if r['status'] == 'fail')
        failing_caps = [c['id'] for c in caps
                        if failing_ids & set(c['tests'])]
        outcome.append({'name': mutant.name, 'service': mutant.service,
                        'rule': mutant.rule, 'killed': bool(failing),
                        'capabilities': failing_caps,
                        'failing_tests': failing})
        ui.say('  %s' % ('killed by %d test(s): %s' % (
            len(failing), ', '.join(failing)) if failing else
            'SURVIVED: no test failed'))
    survived = [m['name'] for m in outcome if not m['killed']]
    path = os.path.join(workdir, 'mutants.json')
    with open(path, 'w') as f:
        json.dump({'mutants': outcome, 'summary': {
            'mutants': len(outcome), 'killed': len(outcome) - len(survived),
            'survived': survived,
            'duration_s': round(time.monotonic() - started, 1)}}, f,
            indent=2)
    ui.say('%d mutants: %d killed, %d survived%s; wrote %s' % (
        len(outcome), len(outcome) - len(survived), len(survived),
        ' (%s)' % ', '.join(survived) if survived else '', path))
    return 1 if survived else 0
