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

"""The options several commands share, each defined once: a command
module adds the ones it takes to its own parser (and nothing else reads
them but that command's function)."""

import argparse
import configparser

from conformance_tests.cmd.errors import CommandError
from conformance_tests.report import applicability

DEFAULT_WORKDIR = '.conformance'


def workdir(parser):
    parser.add_argument('--workdir', default=DEFAULT_WORKDIR,
                        help='where the cloud, workspace and reports live '
                             '(default: %(default)s)')


def port_base(parser, default=18200, what='the services use'):
    parser.add_argument('--port-base', type=int, default=default,
                        help='first of the loopback ports %s '
                             '(default: %%(default)s)' % what)


def cloud(parser):
    """The embedded cloud's ports and profile."""
    from conformance_tests.cloud import profiles
    port_base(parser)
    parser.add_argument('--profile', default=profiles.DEFAULT,
                        choices=profiles.names(),
                        help='how the embedded cloud is configured '
                             '(default: %(default)s; legacy-quota: nova '
                             'counts quota from the cells; spec-reference: '
                             'upstream patched to the specs; vendor-like: '
                             'FQDN hypervisors, path-prefixed endpoints on '
                             'one port, another region; vendor-like-tls: '
                             'vendor-like over HTTPS with a private CA; '
                             '*-no-drs-hypervisor:'
                             ' without senlin\'s vSphere DRS host)')


def release(parser):
    """--release: main.py re-runs the command in that series'
    virtualenv (or, with --tempest-conf, judges by its expectations)."""
    from conformance_tests.cloud import releases
    parser.add_argument('--release', default=releases.CURRENT,
                        choices=releases.SERIES,
                        help='the OpenStack series the embedded cloud is '
                             'built from (default: %(default)s, this '
                             'virtualenv\'s; an older one runs in a '
                             'virtualenv of its own, built on first use); '
                             'with --tempest-conf, the series that cloud '
                             'runs, whose expectations judge it')


def judged_release(parser):
    """--release of a command that only judges results (`report`): the
    series whose expectations judge them. Its own dest, since base.py
    re-runs a command whose ``release`` names an older series in that
    series' virtualenv, and judging needs no other virtualenv."""
    from conformance_tests.cloud import releases
    parser.add_argument('--release', dest='judged_release', default=None,
                        choices=releases.SERIES,
                        help='the OpenStack series the tested cloud runs, '
                             'whose expectations judge the results '
                             '(default: the last report\'s, else today\'s,'
                             ' %s)' % releases.CURRENT)


def scope(parser):
    parser.add_argument('--seed', action='append', metavar='NNN', help=(
        'only the capabilities of this seed, e.g. 003 (repeatable; '
        'default: every seed)'))
    parser.add_argument('--capability', action='append', metavar='ID',
                        help='only this capability (repeatable)')


def scope_of(args):
    """The Scope (report/scope.py) that ``scope(parser)``'s options
    choose; its ScopeError is one line for main.py, as CommandError."""
    from conformance_tests.report import scope as scope_mod
    return scope_mod.Scope(args.seed, args.capability)


def require(parser):
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


def zone_computes(text):
    """--computes: a host count the zone layout can hold."""
    from conformance_tests.cloud.services.nova import layout
    try:
        count = int(text)
        layout.hosts(count)
    except ValueError as e:
        raise argparse.ArgumentTypeError(
            str(e) if isinstance(e, layout.LayoutError)
            else 'a whole number of hosts, not %r' % text)
    return count
