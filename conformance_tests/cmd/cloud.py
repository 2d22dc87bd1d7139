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

"""`conformance cloud up|down`: the embedded cloud alone, for a Tempest
run of one's own or a look at its services."""

from conformance_tests.cloud import launcher
from conformance_tests.cloud import profiles
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui


def add_parser(sub):
    cloud = sub.add_parser('cloud', help='start or stop the embedded cloud')
    cloud_sub = cloud.add_subparsers(dest='action', required=True)
    up = cloud_sub.add_parser('up', help='start the embedded cloud')
    options.workdir(up)
    options.cloud(up)
    options.release(up)
    up.add_argument('--mutant', help='start with this spec violation '
                                     '(see `conformance mutants --list`)')
    up.add_argument('--detach', action='store_true',
                    help='return once ready; stop later with `cloud down`')
    up.add_argument('--computes', type=options.zone_computes, metavar='N',
                    help='hosts in the anti-affinity zone (default: 3; '
                         'more are added beside today\'s, for the scale '
                         'benchmark)')
    up.set_defaults(func=cmd_up)
    down = cloud_sub.add_parser('down', help='stop a detached cloud')
    options.workdir(down)
    down.set_defaults(func=cmd_down)


class CloudUp(base.Command):
    name = 'cloud up'


class CloudDown(base.Command):
    name = 'cloud down'


def cmd_down(args):
    launcher.EmbeddedCloud(args.workdir).down()
    return 0


def cmd_up(args):
    settings = dict(profiles.settings(args.profile))
    if args.computes:
        settings['zone_computes'] = args.computes
    cloud = launcher.EmbeddedCloud(args.workdir, port_base=args.port_base,
                                   mutant=args.mutant, **settings)
    try:
        cloud.up()
    except launcher.CloudError as e:
        raise CommandError(str(e))
    ui.say('Tempest workspace: %s (credentials inside; do not share)' %
           cloud.workspace)
    if args.detach:
        ui.say('stop it with: conformance cloud down --workdir %s' %
               args.workdir)
        return 0
    ui.say('press Ctrl-C to stop')
    cloud.wait()
    return 0
