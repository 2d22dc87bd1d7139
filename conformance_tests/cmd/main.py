"""`conformance`: run the suite, drive the embedded cloud, build reports.

    conformance run                 cloud up, whole suite through Tempest,
                                    report, cloud down
    conformance mutants             the suite against every mutant
    conformance cloud up|down       the embedded cloud alone
    conformance report              rebuild the report from the last run
    conformance preflight           is a tempest.conf's cloud fit to run it
    conformance cleanup             remove leftovers of an interrupted run
    conformance bundle              the last run as a certification bundle
    conformance verify-bundle FILE  recompute a bundle's verdicts, check it
    conformance matrix              the suite on each series, one table
    conformance packaged up|down|run|status
                                    Debian 13's packaged OpenStack 2025.1
                                    in a chroot, the suite against it
"""

import argparse
import os
import signal
import sys

from conformance_tests.cmd.cleanup import CleanupError
from conformance_tests.cmd.packaged import PackagedCommandError
from conformance_tests.cmd.run import CommandError
from conformance_tests.cmd.run import DEFAULT_WORKDIR
from conformance_tests.common import ui


def _common(parser):
    parser.add_argument('--workdir', default=DEFAULT_WORKDIR,
                        help='where the cloud, workspace and reports live '
                             '(default: %(default)s)')


def _cloud_options(parser):
    from conformance_tests.cloud import profiles
    parser.add_argument('--port-base', type=int, default=18200,
                        help='first of the loopback ports the services use '
                             '(default: %(default)s)')
    parser.add_argument('--profile', default=profiles.DEFAULT,
                        choices=profiles.names(),
                        help='how the embedded cloud is configured '
                             '(default: %(default)s; legacy-quota: nova '
                             'counts quota from the cells; spec-reference: '
                             'upstream patched to the specs; vendor-like: '
                             'FQDN hypervisors, path-prefixed endpoints on '
                             'one port, another region; *-no-drs-hypervisor:'
                             ' without senlin\'s vSphere DRS host)')


def _release_option(parser):
    from conformance_tests.cloud import releases
    parser.add_argument('--release', default=releases.CURRENT,
                        choices=releases.SERIES,
                        help='the OpenStack series the embedded cloud is '
                             'built from (default: %(default)s, this '
                             'virtualenv\'s; an older one runs in a '
                             'virtualenv of its own, built on first use); '
                             'with --tempest-conf, the series that cloud '
                             'runs, whose expectations judge it')


def build_parser():
    parser = argparse.ArgumentParser(prog='conformance', description=(
        'Conformance suite for five OpenStack features.'))
    sub = parser.add_subparsers(dest='command', required=True)

    cloud = sub.add_parser('cloud', help='start or stop the embedded cloud')
    cloud_sub = cloud.add_subparsers(dest='action', required=True)
    up = cloud_sub.add_parser('up', help='start the embedded cloud')
    _common(up)
    _cloud_options(up)
    _release_option(up)
    up.add_argument('--mutant', help='start with this spec violation '
                                     '(see `conformance mutants --list`)')
    up.add_argument('--detach', action='store_true',
                    help='return once ready; stop later with `cloud down`')
    up.add_argument('--computes', type=_zone_computes, metavar='N',
                    help='hosts in the anti-affinity zone (default: 3; '
                         'more are added beside today\'s, for the scale '
                         'benchmark)')
    down = cloud_sub.add_parser('down', help='stop a detached cloud')
    _common(down)

    from conformance_tests.bench import command as bench_cmd
    from conformance_tests.cmd import bundle
    from conformance_tests.cmd import cleanup
    from conformance_tests.cmd import matrix
    from conformance_tests.cmd import packaged
    from conformance_tests.cmd import preflight
    from conformance_tests.cmd import run as run_cmd
    run_cmd.add_parsers(sub, _common, _cloud_options)
    _release_option(sub.choices['run'])
    _release_option(sub.choices['mutants'])
    bench_cmd.add_parser(sub, _common)
    cleanup.add_parser(sub, _common)
    bundle.add_parser(sub, _common)
    preflight.add_parser(sub, _common)
    matrix.add_parser(sub, _common)
    packaged.add_parser(sub, _common)
    return parser


class Terminated(BaseException):
    """SIGTERM, raised where the main thread is, so that every `finally`
    runs: a run or mutant run stopped by a CI timeout or `kill` stops
    the cloud it started (its processes are in sessions of their own,
    so nothing else would), as Ctrl-C does."""


def _terminate(signum, frame):
    raise Terminated()


def main(argv=None):
    args = build_parser().parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        _on_release(args, sys.argv[1:] if argv is None else argv)
        return args.func(args) if hasattr(args, 'func') else _cloud(args)
    except KeyboardInterrupt:
        ui.fail('interrupted')
        return 130
    except Terminated:
        ui.fail('terminated (SIGTERM); what it started is stopped')
        return 143
    except (UserError, CommandError, CleanupError, FileNotFoundError,
            ReleaseError, PackagedCommandError) as e:
        ui.fail(str(e))
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)


def _zone_computes(text):
    from conformance_tests.cloud.services.nova import layout
    try:
        count = int(text)
        layout.hosts(count)
    except ValueError as e:
        raise argparse.ArgumentTypeError(
            str(e) if isinstance(e, layout.LayoutError)
            else 'a whole number of hosts, not %r' % text)
    return count


class UserError(Exception):
    """Bad input or config: reported as one line, never a traceback."""


class ReleaseError(Exception):
    """A series' virtualenv cannot be built or run: one line."""


def release_env(series, venv, environ=None):
    """The environment of a command re-run in ``series``' virtualenv: it
    names the series, and what it starts by name (stestr's workers) is
    that virtualenv's."""
    env = dict(os.environ if environ is None else environ)
    env.pop('PYTHONHOME', None)
    env['CONFORMANCE_RELEASE'] = series
    env['VIRTUAL_ENV'] = venv
    env['PATH'] = os.pathsep.join(
        [os.path.join(venv, 'bin')] +
        [p for p in env.get('PATH', '').split(os.pathsep) if p])
    return env


def _on_release(args, argv):
    """With `--release` of an older series, re-run this command in that
    series' virtualenv (built first if needed; cloud/releases.py), with
    $CONFORMANCE_RELEASE naming the series: this process ends there.
    The current series (the default) changes nothing."""
    from conformance_tests.cloud import releases
    series = getattr(args, 'release', None)
    if series is None or series == releases.CURRENT:
        return
    if getattr(args, 'tempest_conf', None):
        # A vendor's cloud runs that series: its verdicts are judged by
        # the series' expectations (cmd/run.py), the suite runs here.
        return
    try:
        venv = releases.ensure_venv(series, ui.say)
    except releases.ReleaseError as e:
        raise ReleaseError(str(e))
    cmd = releases.command(venv, argv)
    if not os.access(cmd[0], os.X_OK):
        raise ReleaseError('the %s virtualenv has no %s: remove %s so that '
                           '`--release %s` builds it again' % (
                               series, cmd[0], venv, series))
    ui.say('release %s: running in %s' % (series, venv))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(cmd[0], cmd, release_env(series, venv))
    except OSError as e:
        raise ReleaseError('cannot run %s: %s' % (cmd[0], e))


def _cloud(args):
    from conformance_tests.cloud import launcher
    from conformance_tests.cloud import profiles
    profile = dict(profiles.settings(getattr(args, 'profile',
                                             profiles.DEFAULT)))
    if getattr(args, 'computes', None):
        profile['zone_computes'] = args.computes
    cloud = launcher.EmbeddedCloud(args.workdir, port_base=getattr(
        args, 'port_base', 18200), mutant=getattr(args, 'mutant', None),
        **profile)
    try:
        if args.action == 'down':
            cloud.down()
            return 0
        cloud.up()
    except launcher.CloudError as e:
        raise UserError(str(e))
    ui.say('Tempest workspace: %s (credentials inside; do not share)' %
           cloud.workspace)
    if args.detach:
        ui.say('stop it with: conformance cloud down --workdir %s' %
               args.workdir)
        return 0
    ui.say('press Ctrl-C to stop')
    cloud.wait()
    return 0


if __name__ == '__main__':
    sys.exit(main())
