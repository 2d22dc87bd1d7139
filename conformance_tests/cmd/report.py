"""`conformance report`: the report built again from a subunit stream
(default: the workdir's last run), judged as that run was."""

import json
import os

from conformance_tests.cloud import profiles
from conformance_tests.cmd import base
from conformance_tests.cmd import options
from conformance_tests.cmd.errors import CommandError
from conformance_tests.report import publish
from conformance_tests.report.publish import SUBUNIT
from conformance_tests.report import results as results_mod
from conformance_tests.runner import tempest_runner
from conformance_tests.vendor import workspace as vendor_workspace


def add_parser(sub):
    rep = sub.add_parser('report', help=(
        'build the report from a subunit stream (default: the last run)'))
    options.workdir(rep)
    rep.add_argument('--subunit', help='subunit v2 file (default: '
                                       '<workdir>/%s)' % SUBUNIT)
    rep.add_argument('--target', help='what the tests ran against')
    rep.add_argument('--allow-skips', action='store_true',
                     help='partial capabilities do not fail the report')
    rep.add_argument('--profile', default=profiles.DEFAULT,
                     choices=profiles.names(),
                     help='whose expectations to judge by (default: '
                          '%(default)s)')
    options.scope(rep)
    # A rebuilt report judges not-applicable as the gate's run did.
    options.require(rep)
    rep.set_defaults(func=cmd_report)


class Report(base.Command):
    name = 'report'


def cmd_report(args):
    scope = options.scope_of(args)
    workdir = os.path.abspath(args.workdir)
    path = args.subunit or os.path.join(workdir, SUBUNIT)
    if not os.path.exists(path):
        raise CommandError('no results at %s: run `conformance run` first '
                           'or pass --subunit' % path)
    try:
        results = results_mod.read_file(path)
    except results_mod.NotSubunit as e:
        raise CommandError(str(e))
    selection = last_selection(workdir)
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
    return publish.publish(
        workdir, results, target, scope, allow_skips=allow_skips,
        profile=args.profile, required=options.requirements(required),
        release=release, versions=versions)


def last_selection(workdir):
    """The tests the workdir's last run selected (its Tempest workspace
    keeps the list), or None."""
    found = [os.path.join(workdir, ws, tempest_runner.SELECTED)
             for ws in ('workspace', vendor_workspace.NAME)]
    found = [p for p in found if os.path.exists(p)]
    if not found:
        return None
    with open(max(found, key=os.path.getmtime)) as f:
        return [line.strip() for line in f if line.strip()]
