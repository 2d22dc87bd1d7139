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

"""`conformance preflight`: is a tempest.conf's cloud fit for the suite?

    conformance preflight --tempest-conf FILE [--release S] [--workdir W]

checks in a few seconds what every test would otherwise find out one
failure at a time (conformance_tests/preflight/): identity, each
account, the catalog, each endpoint's version document and the
microversions tempest.conf claims, and which series the cloud looks
like beside the one whose expectations judge it. `conformance run
--tempest-conf` runs the same check first (preflight/gate.py). A failure
is one line naming the option to fix, exit 2; the findings go to
<workdir>/preflight.json.
"""

from conformance_tests.cloud import releases
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui
from conformance_tests.preflight import gate


def add_parser(sub):
    parser = sub.add_parser('preflight', help=(
        'check in a few seconds that a tempest.conf\'s cloud can run the '
        'suite: identity, credentials, catalog, endpoints, microversions'))
    options.workdir(parser)
    parser.add_argument('--tempest-conf', required=True, help=(
        'the tempest.conf of the cloud to check'))
    parser.add_argument('--release', choices=releases.SERIES, help=(
        'the series whose expectations will judge the cloud (as `run '
        '--release`); preflight warns when the cloud looks like another'))
    parser.set_defaults(func=cmd_preflight)
    return parser


class Preflight(base.Command):
    name = 'preflight'


def cmd_preflight(args, say=ui.say):
    run_preflight(args.tempest_conf, args.workdir, say=say,
                  release=args.release)
    return 0


def run_preflight(conf_path, workdir, say=ui.say, release=None):
    """preflight/gate.py's run; its GateError as a CommandError."""
    try:
        return gate.run(conf_path, workdir, say=say, release=release)
    except gate.GateError as e:
        raise CommandError(str(e))
