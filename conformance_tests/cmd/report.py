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

"""`conformance report`: the report built again from a subunit stream
(default: the workdir's last run), judged as that run was; or from a
plain `tempest run`'s stream (a gate's, a vendor's), judged as
`conformance run` would have judged it (--tempest-conf, --release)."""

import json
import os

from conformance_tests.cloud import profiles
from conformance_tests.cloud import releases
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.report import class_outcomes
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
    rep.add_argument('--tempest-conf', help=(
        'the tempest.conf the tests ran with: judged as `conformance run '
        '--tempest-conf` judges (skips allowed, its [conformance] require '
        'counts; the target, unless --target, is its cloud)'))
    options.judged_release(rep)
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
    if args.tempest_conf:
        try:
            vendor_workspace.check_tempest_conf(args.tempest_conf)
        except vendor_workspace.TempestConfError as e:
            raise CommandError(str(e))
    try:
        results = results_mod.read_file(path)
    except results_mod.NotSubunit as e:
        raise CommandError(str(e))
    results = attributed(results, scope, workdir, path)
    judged = judged_by(args, workdir)
    return publish.publish(
        workdir, results, judged['target'], scope,
        allow_skips=judged['allow_skips'], profile=args.profile,
        required=options.requirements(judged['required'], args.tempest_conf),
        release=judged['release'], versions=judged['versions'])


def attributed(results, scope, workdir, path):
    """``results`` with each class-level outcome given to its class's
    tests: by the tests the workdir's last run selected when ``path`` is
    that run's stream, else by Tempest's listing of the plugin."""
    own = os.path.realpath(path) == os.path.realpath(
        os.path.join(workdir, SUBUNIT))
    try:
        return class_outcomes.attribute(
            results, scope.capabilities, workdir,
            selection=last_selection(workdir) if own else None)
    except class_outcomes.ListingError as e:
        raise CommandError(str(e))


def judged_by(args, workdir):
    """{target, allow_skips, required, release, versions}: what the
    options say; without --target or --tempest-conf, what the workdir's
    last report said too (the run it rebuilds)."""
    judged = {'target': args.target, 'allow_skips': args.allow_skips,
              'required': list(args.require or []),
              'release': _older(args.judged_release), 'versions': None}
    if args.tempest_conf:
        # as cmd/run.py's vendor run names and judges its target
        judged['allow_skips'] = True
        judged['target'] = judged['target'] or 'cloud of %s' % (
            os.path.abspath(args.tempest_conf))
    if judged['target']:
        return judged
    previous = _last_summary(workdir)
    judged['target'] = previous['target']
    judged['allow_skips'] |= previous.get('skips_allowed', False)
    judged['required'] += previous.get('required', [])
    last_release = _older(previous.get('release'))
    if args.judged_release is None or judged['release'] == last_release:
        # the versions are those of the series the last run judged
        judged['release'] = last_release
        judged['versions'] = previous.get('versions')
    return judged


def _older(series):
    """An older series, or None for today's (or none given)."""
    return None if series in (None, releases.CURRENT) else series


def _last_summary(workdir):
    try:
        with open(os.path.join(workdir, 'report.json')) as f:
            return json.load(f)['summary']
    except (OSError, ValueError, KeyError, TypeError):
        raise CommandError('say what the tests ran against with --target '
                           '(or --tempest-conf)')


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
