"""`conformance bundle` and `conformance verify-bundle`.

    conformance bundle [--workdir W] [--output FILE]
        pack W's finished run into one archive to hand over (default
        W/bundle.tar.gz): report, stream, selected tests, tempest.conf
        with every secret removed, guidelines, suite.json, manifest
    conformance verify-bundle FILE
        check the manifest and the guidelines digest, and recompute
        every verdict from the bundle's stream and guidelines

Exit codes as elsewhere: 0 all good, 1 a problem found (one line each),
2 the command could not run (a missing run, a file that is no bundle).
Errors are handled here, not in main.py, so the commands answer the same
when called directly (the self-tests do).
"""

from conformance_tests.common import ui
from conformance_tests.report import bundle


def add_parser(sub, common):
    make = sub.add_parser('bundle', help=(
        'pack a finished run into one archive to hand over (report, '
        'stream, redacted tempest.conf, guidelines, manifest)'))
    common(make)
    make.add_argument('--output', metavar='FILE', help=(
        'where to write it (default: <workdir>/bundle.tar.gz)'))
    make.set_defaults(func=cmd_bundle)
    check = sub.add_parser('verify-bundle', help=(
        'check a bundle\'s manifest and recompute every verdict from its '
        'stream and guidelines'))
    check.add_argument('file', metavar='FILE', help='the bundle (.tar.gz)')
    check.set_defaults(func=cmd_verify_bundle)


def cmd_bundle(args, say=print, fail=ui.fail, guideline_files=None):
    try:
        path, names = bundle.make(args.workdir, args.output,
                                  guideline_files=guideline_files)
    except bundle.BundleError as e:
        fail(str(e))
        return 2
    # A report rebuilt from another stream (`conformance report
    # --subunit`) would not match this one: say so now, not when the
    # vendor's customer checks it.
    code = _verify(path, say, fail)
    if code == 0:
        say('bundle: %s (%d members, each 0600; tempest.conf has every '
            'secret removed)' % (path, len(names)))
    return code


def cmd_verify_bundle(args, say=print, fail=ui.fail):
    return _verify(args.file, say, fail)


def _verify(path, say, fail):
    try:
        problems, counts = bundle.verify(path)
    except bundle.NotABundle as e:
        fail(str(e))
        return 2
    for problem in problems:
        say(problem)
    if problems:
        fail('%s does not verify: %d problem(s) above' % (
            path, len(problems)))
        return 1
    say('%s verified: %d members match %s; %d capability verdicts '
        'recomputed from its stream and guidelines match report.json' % (
            path, counts['members'], bundle.MANIFEST,
            counts['capabilities']))
    return 0
