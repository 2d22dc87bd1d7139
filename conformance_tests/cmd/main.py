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
import importlib
import os
import signal
import sys

from conformance_tests.cmd.errors import CommandError
from conformance_tests.report.scope import ScopeError
from conformance_tests.common import ui

#: One module per command, cmd/<name>.py: its parser and its function,
#: which call the rooms below (cloud/, report/, runner/, ...).
COMMANDS = ('run', 'mutants', 'report', 'select', 'cloud', 'bench',
            'cleanup', 'bundle', 'preflight', 'matrix', 'packaged')


def build_parser():
    parser = argparse.ArgumentParser(prog='conformance', description=(
        'Conformance suite for five OpenStack features.'))
    sub = parser.add_subparsers(dest='command', required=True)
    for name in COMMANDS:
        module = importlib.import_module('conformance_tests.cmd.' + name)
        module.add_parser(sub)
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
        return args.func(args)
    except KeyboardInterrupt:
        ui.fail('interrupted')
        return 130
    except Terminated:
        ui.fail('terminated (SIGTERM); what it started is stopped')
        return 143
    except (CommandError, ScopeError, FileNotFoundError) as e:
        ui.fail(str(e))
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)


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
        raise CommandError(str(e))
    cmd = releases.command(venv, argv)
    if not os.access(cmd[0], os.X_OK):
        raise CommandError('the %s virtualenv has no %s: remove %s so that '
                           '`--release %s` builds it again' % (
                               series, cmd[0], venv, series))
    ui.say('release %s: running in %s' % (series, venv))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(cmd[0], cmd, release_env(series, venv))
    except OSError as e:
        raise CommandError('cannot run %s: %s' % (cmd[0], e))


if __name__ == '__main__':
    sys.exit(main())
