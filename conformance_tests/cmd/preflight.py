"""`conformance preflight`: is a tempest.conf's cloud fit for the suite?

    conformance preflight --tempest-conf FILE [--release S] [--workdir W]

checks in a few seconds what every test would otherwise find out one
failure at a time (conformance_tests/preflight/): identity, each
account, the catalog, each endpoint's version document and the
microversions tempest.conf claims, and which series the cloud looks
like beside the one whose expectations judge it. `conformance run
--tempest-conf` runs the same check first (run_preflight). A failure
is one line naming the option to fix, exit 2; the findings go to
<workdir>/preflight.json.
"""

from conformance_tests.cloud import releases
from conformance_tests.common import ui
from conformance_tests import preflight
from conformance_tests.preflight import series


def add_parser(sub, common):
    parser = sub.add_parser('preflight', help=(
        'check in a few seconds that a tempest.conf\'s cloud can run the '
        'suite: identity, credentials, catalog, endpoints, microversions'))
    common(parser)
    parser.add_argument('--tempest-conf', required=True, help=(
        'the tempest.conf of the cloud to check'))
    parser.add_argument('--release', choices=releases.SERIES, help=(
        'the series whose expectations will judge the cloud (as `run '
        '--release`); preflight warns when the cloud looks like another'))
    parser.set_defaults(func=cmd_preflight)
    return parser


def cmd_preflight(args, say=ui.say):
    run_preflight(args.tempest_conf, args.workdir, say=say,
                  release=args.release)
    return 0


def run_preflight(conf_path, workdir, say=ui.say, release=None):
    """Check the cloud of ``conf_path``; write <workdir>/preflight.json
    (also on failure) and say a short summary.

    ``release``: the series whose expectations will judge the run (its
    --release; None: today's), said beside the series the cloud looks
    like, with a warning when they differ.

    Returns the findings (a dict with no secret); raises cmd.run's
    CommandError, whose str() is the one line to print (cmd/main.py:
    exit 2), when the cloud or the conf is not fit.
    """
    # Imported here: cmd/run.py may import this module at its top.
    from conformance_tests.cmd.run import CommandError
    try:
        findings = preflight.check(conf_path)
    except preflight.PreflightError as e:
        try:
            preflight.write(e.findings, workdir)
        except OSError:
            pass    # the cloud's problem is the one to report
        raise CommandError(str(e))
    series.judge(findings.get('series'), release)
    try:
        path = preflight.write(findings, workdir)
    except OSError as e:
        raise CommandError('--workdir %s: cannot write %s (%s)' % (
            workdir, preflight.FILENAME, e.strerror))
    for line in preflight.summary(findings):
        say('preflight: %s' % line)
    say('preflight: findings in %s' % path)
    return findings
