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

"""`conformance config`: write a tempest.conf for a cloud, then check it.

    conformance config [--os-cloud NAME] [--out FILE] [--create]
                       [--image FILE] [--non-admin] [section.option VALUE ...]

The cloud's credentials come from clouds.yaml (--os-cloud) or the OS_*
variables, as for the `openstack` command. python-tempestconf writes
Tempest's sections; the suite adds its own where the API can tell
(conformance_tests/configure/); the `section.option VALUE` pairs win
over both. Then the preflight runs on the file. The file is 0600.
"""

import os

from conformance_tests.cloud import releases
from conformance_tests.cloud import secrets as secret_files
from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.cmd import options
from conformance_tests.common import ui

DEFAULT_OUT = 'etc/tempest.conf'


def add_parser(sub):
    parser = sub.add_parser('config', help=(
        'write a tempest.conf for a cloud from its clouds.yaml entry or '
        'OS_* variables (python-tempestconf, then the suite\'s options '
        'found from the API), then run the preflight on it'))
    options.workdir(parser)
    parser.add_argument('--os-cloud', help=(
        'the clouds.yaml entry to use (default: the OS_* variables, or '
        'OS_CLOUD)'))
    parser.add_argument('--out', default=DEFAULT_OUT, help=(
        'where to write the tempest.conf (default: %(default)s)'))
    parser.add_argument('--create', action='store_true', help=(
        'let python-tempestconf create what it does not find (flavors, '
        'images, Tempest\'s accounts); needs admin'))
    parser.add_argument('--image', help=(
        'an image file (or URL) python-tempestconf uploads when glance has '
        'no image it can use'))
    parser.add_argument('--non-admin', action='store_true', help=(
        'the credentials are a project member\'s (python-tempestconf\'s '
        '--non-admin): the suite cannot list hosts, so the host options '
        'are left to set'))
    # Not dest 'release': that re-runs a command in the series'
    # virtualenv (cmd/base.py); here it only tells the preflight.
    parser.add_argument(
        '--release', dest='preflight_release', choices=releases.SERIES,
        help=('the series whose expectations will judge the cloud, for '
              'the preflight (as `run --release`)'))
    parser.add_argument('overrides', nargs='*', metavar='section.option '
                        'VALUE', help=(
                            'values to write as given (e.g. '
                            'conformance.allow_disruption true)'))
    parser.set_defaults(func=cmd_config)
    return parser


class Config(base.Command):
    name = 'config'


def cmd_config(args, say=ui.say):
    from conformance_tests.configure import discover
    from conformance_tests.configure import images
    from conformance_tests.configure import tempestconf
    from conformance_tests.configure import writer
    from conformance_tests import services

    try:
        overrides = writer.parse_overrides(args.overrides)
    except ValueError as e:
        raise CommandError(str(e))
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    raw = os.path.join(workdir, 'tempestconf', 'tempest.conf')
    os.makedirs(os.path.dirname(raw), exist_ok=True)
    # Created 0600 first: python-tempestconf writes into it and keeps
    # the mode, so its credentials are never readable by others.
    secret_files.private_open(raw).close()
    given = {(s, o): v for s, o, v in overrides}
    picked = []
    if not args.image and ('compute', 'image_ref') not in given:
        try:
            chosen = images.from_cloud(args.os_cloud)
        except images.ImageError as e:
            raise CommandError('config: %s' % e)
        if chosen:
            say('config: glance\'s images %s and %s for image_ref and '
                'image_ref_alt (the smallest active public ones)' % chosen)
            picked = [('compute', 'image_ref', chosen[0]),
                      ('compute', 'image_ref_alt', chosen[1])]
    try:
        argv = tempestconf.argv(raw, args.os_cloud, args.create, args.image,
                                args.non_admin, overrides + picked)
        say('config: python-tempestconf discovers the cloud (%s)' % (
            'clouds.yaml entry %s' % args.os_cloud if args.os_cloud
            else 'OS_* variables'))
        tempestconf.run(argv, workdir)
    except tempestconf.TempestconfError as e:
        raise CommandError(str(e))
    say('config: the suite\'s options, from the API')
    try:
        findings, missing = discover.discover(raw, given, services.all())
    except discover.DiscoveryError as e:
        raise CommandError('config: %s' % e)
    used, missing = writer.not_given(
        findings, missing + list(discover.BY_HAND), overrides)
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    writer.write(out, writer.merge(raw, findings, overrides),
                 writer.header(used, missing))
    for f in used:
        say('config: [%s] %s = %s (%s)' % (
            f.section, f.option, f.value, f.why))
    say('config: wrote %s (0600: it holds the credentials); %d option(s) '
        'found by the suite, %d given, %d left to set by hand (listed at '
        'its top)' % (out, len(used), len(overrides), len(missing)))
    from conformance_tests.preflight import gate
    try:
        gate.run(out, workdir, say=say, release=args.preflight_release)
    except gate.GateError as e:
        raise CommandError(str(e))
    return 0
