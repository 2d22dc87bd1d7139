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

"""`conformance run`: the suite against the embedded cloud (started and
stopped here) or a vendor's cloud (--tempest-conf), then the report.

The rooms build what the run needs: the scope (report/scope.py), the
cloud (cloud/launcher.py) or the vendor's workspace (vendor/), the
inventory guard (inventory/guard.py), Tempest (runner/), the report
(report/publish.py). This module parses, calls them in order and turns
their one-line errors into CommandError."""

import os
import time

from conformance_tests.cloud import launcher
from conformance_tests.cloud import profiles
from conformance_tests.cloud import target as cloud_target
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui
from conformance_tests.inventory import guard
from conformance_tests.preflight import gate
from conformance_tests.report import publish
from conformance_tests.runner import tempest_runner
from conformance_tests.vendor import workspace as vendor_workspace

# What the rooms raise, each a line that says what to fix.
ROOM_ERRORS = (launcher.CloudError, tempest_runner.RunError,
               vendor_workspace.TempestConfError, guard.InventoryError,
               cloud_target.TargetError, gate.GateError)


def add_parser(sub):
    run = sub.add_parser('run', help='run the whole suite and report')
    options.workdir(run)
    options.cloud(run)
    options.release(run)
    run.add_argument('--tempest-conf', help=(
        'run against the cloud this tempest.conf describes instead of '
        'starting the embedded cloud (skips are then allowed)'))
    run.add_argument('--concurrency', type=int, default=2)
    run.add_argument('--inventory', action='store_true', help=(
        'list every object of the kinds the suite touches before and '
        'after the run (needs admin); any difference fails the run'))
    options.scope(run)
    options.require(run)
    run.set_defaults(func=cmd_run)


class Run(base.Command):
    name = 'run'


def judged_release(args):
    """The older series whose expectations judge the run, or None: the
    embedded cloud's (--release re-ran us in its virtualenv), or what
    --release says a vendor's cloud (--tempest-conf) runs."""
    from conformance_tests.cloud import releases
    if args.tempest_conf:
        series = getattr(args, 'release', None)
        return None if series in (None, releases.CURRENT) else series
    return cloud_target.older_release()


def run_workdir(args):
    """--workdir, or for a profile other than the default with the
    default workdir, a directory of that profile's beside it."""
    workdir = args.workdir
    if args.profile != profiles.DEFAULT and \
            workdir == options.DEFAULT_WORKDIR:
        workdir = os.path.join(workdir, args.profile)
    return os.path.abspath(workdir)


def cmd_run(args):
    started = time.monotonic()
    scope = options.scope_of(args)
    workdir = run_workdir(args)
    os.makedirs(workdir, exist_ok=True)
    subunit_path = os.path.join(workdir, publish.SUBUNIT)
    findings = None
    try:
        if args.tempest_conf:
            vendor_workspace.check_tempest_conf(args.tempest_conf)
            # Before any test: an unfit cloud or conf is one line, exit 2.
            findings = gate.run(args.tempest_conf, workdir,
                                release=judged_release(args))
        required = options.requirements(args.require, args.tempest_conf)
        ui.say('scope: %d of %d capabilities, %d tests' % (
            len(scope.ids), len(scope.capabilities), len(scope.test_ids)))
        if args.tempest_conf:
            results, inventory, target = _on_vendor_cloud(
                args, scope, workdir, subunit_path)
            versions = None
        else:
            results, inventory, target = _on_embedded_cloud(
                args, scope, workdir, subunit_path)
            versions = cloud_target.versions()
    except ROOM_ERRORS as e:
        raise CommandError(str(e))
    return publish.publish(
        workdir, results, target, scope,
        allow_skips=bool(args.tempest_conf),
        duration=time.monotonic() - started, profile=args.profile,
        required=required, inventory=inventory.differences,
        preflight=findings, release=judged_release(args), versions=versions)


def _on_vendor_cloud(args, scope, workdir, subunit_path):
    workspace = vendor_workspace.make(workdir, args.tempest_conf)
    with guard.Guard(args.inventory, workspace, workdir) as inventory:
        results = tempest_runner.run(workspace, subunit_path, ui.say,
                                     args.concurrency, regex=scope.regex())
    return results, inventory, 'cloud of %s' % os.path.abspath(
        args.tempest_conf)


def _on_embedded_cloud(args, scope, workdir, subunit_path):
    target = cloud_target.describe(args.profile)
    cloud = launcher.EmbeddedCloud(workdir, port_base=args.port_base,
                                   **profiles.settings(args.profile))
    listing = tempest_runner.Listing()
    cloud.up(while_starting=lambda: listing.prefetch(cloud.workspace))
    try:
        with guard.Guard(args.inventory, cloud.workspace,
                         workdir) as inventory:
            ui.say('running the suite through Tempest')
            results = tempest_runner.run(
                cloud.workspace, subunit_path, ui.say, args.concurrency,
                regex=scope.regex(), listing=listing)
    finally:
        cloud.down()
    return results, inventory, target
