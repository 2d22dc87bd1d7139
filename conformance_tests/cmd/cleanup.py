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

"""`conformance cleanup`: repair what an interrupted run left behind.

Tests remove their own resources and bring back any cell they took down,
also when they fail; a run killed mid-way cannot. This brings the fault
cell back and removes what the run made, in every service the suite
touches, and nothing else (conformance_tests/cleanup/).
"""

import os

from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui


class CleanupError(CommandError):
    """`conformance cleanup` cannot start: one line."""


def add_parser(sub):
    parser = sub.add_parser('cleanup', help=(
        'remove resources left by an interrupted run'))
    options.workdir(parser)
    parser.add_argument('--tempest-conf', help=(
        'the cloud to clean (default: the embedded cloud running from '
        '--workdir)'))
    parser.add_argument('--dry-run', action='store_true',
                        help='list what would be removed')
    parser.set_defaults(func=cmd_cleanup)


class Cleanup(base.Command):
    name = 'cleanup'


def cmd_cleanup(args, say=print, fail=ui.fail):
    from conformance_tests.cleanup import context
    from conformance_tests.cleanup import plan
    conf_path = os.path.abspath(args.tempest_conf or os.path.join(
        args.workdir, 'workspace', 'etc', 'tempest.conf'))
    if not os.path.isfile(conf_path):
        raise CleanupError('no tempest.conf at %s: pass --tempest-conf, or '
                           'start the embedded cloud first' % conf_path)
    try:
        ctx = context.from_conf(context.load_conf(conf_path))
    except (context.ContextError, ValueError) as e:
        raise CleanupError(str(e))
    from tempest.lib.common import api_microversion_fixture
    with api_microversion_fixture.APIMicroversionFixture(
            compute_microversion=context.COMPUTE_MICROVERSION):
        errors = plan.run(ctx, dry_run=args.dry_run, say=say)
    for error in errors:
        fail(error)
    return 1 if errors else 0
