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

"""`conformance bundle` and `conformance verify-bundle`.

    conformance bundle [--workdir W] [--output FILE] [--sign KEY]
        pack W's finished run into one archive to hand over (default
        W/bundle.tar.gz): report (JSON, Markdown, HTML), stream, selected
        tests, tempest.conf with every secret removed, guidelines,
        suite.json, manifest; print its sha256 and write it beside it
        (FILE.sha256, for `sha256sum -c`); with --sign, also a detached
        signature by that OpenSSH key (FILE.sig, report/signature.py)
    conformance verify-bundle FILE [--signed-by KEY.pub]
        check the manifest and the guidelines digest, recompute
        every verdict from the bundle's stream and guidelines, and check
        that report.html says what report.json says; with --signed-by,
        that FILE.sig is a signature of FILE by that public key

Exit codes as elsewhere: 0 all good, 1 a problem found (one line each),
2 the command could not run (a missing run, a file that is no bundle).
Errors are handled here, not in main.py, so the commands answer the same
when called directly (the self-tests do).
"""

import os

from conformance_tests.cmd import base
from conformance_tests.cmd import options
from conformance_tests.common import ui
from conformance_tests.report import bundle
from conformance_tests.report import signature


def add_parser(sub):
    make = sub.add_parser('bundle', help=(
        'pack a finished run into one archive to hand over (report, '
        'stream, redacted tempest.conf, guidelines, manifest)'))
    options.workdir(make)
    make.add_argument('--output', metavar='FILE', help=(
        'where to write it (default: <workdir>/bundle.tar.gz)'))
    make.add_argument('--sign', metavar='KEY', help=(
        'also sign it with this OpenSSH private key (ssh-keygen -Y sign): '
        'FILE.sig beside it, checked by verify-bundle --signed-by with '
        'the public key'))
    make.set_defaults(func=cmd_bundle)
    check = sub.add_parser('verify-bundle', help=(
        'check a bundle\'s manifest and recompute every verdict from its '
        'stream and guidelines'))
    check.add_argument('file', metavar='FILE', help='the bundle (.tar.gz)')
    check.add_argument('--signed-by', metavar='KEY.pub', help=(
        'the signer\'s OpenSSH public key, received apart from the bundle: '
        'FILE.sig must be its signature of FILE'))
    check.set_defaults(func=cmd_verify_bundle)


class Bundle(base.Command):
    name = 'bundle'


class VerifyBundle(base.Command):
    name = 'verify-bundle'


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
        with open(path + bundle.SHA256_SUFFIX) as f:
            digest = f.read().split()[0]
        signed = ''
        if getattr(args, 'sign', None):
            try:
                signed = '; signed by %s in %s' % (
                    args.sign, signature.sign(path, args.sign))
            except signature.SignatureError as e:
                fail(str(e))
                return 2
        say('bundle: %s (%d members, each 0600; tempest.conf has every '
            'secret removed); sha256 %s, also in %s%s' % (
                path, len(names), digest, path + bundle.SHA256_SUFFIX,
                signed))
    return code


def cmd_verify_bundle(args, say=print, fail=ui.fail):
    signed_by = getattr(args, 'signed_by', None)
    if signed_by:
        try:
            signature.public_key_line(signed_by)
        except signature.SignatureError as e:
            fail(str(e))
            return 2
    code = _verify(args.file, say, fail)
    if code == 2:
        return code
    if signed_by:
        wrong = signature.verify(args.file, signed_by)
        if wrong:
            say(wrong)
            fail('%s does not verify: not signed by %s' % (
                args.file, signed_by))
            return 1
        say('%s is signed by %s (%s, namespace %s)' % (
            args.file, signed_by, args.file + signature.SUFFIX,
            signature.NAMESPACE))
    elif os.path.exists(args.file + signature.SUFFIX):
        say('%s has a signature beside it, not checked: give the signer\'s '
            'public key with --signed-by' % args.file)
    return code


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
        'recomputed from its stream and guidelines match report.json, '
        'and report.html says what report.json says' % (
            path, counts['members'], bundle.MANIFEST,
            counts['capabilities']))
    return 0
