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

"""Proof that the suite tells a vendor's cloud the truth, at home.

    python -m conformance_tests.tools.vendor_proof [--profile P]
        [--compare-with REPORT] [--port-base N] [--workdir W]
        [--conformance PATH]

Starts one embedded cloud (by default the `vendor-like` profile when the
cloud has it) and runs the suite against it three times, the way a vendor
does, through `conformance run --tempest-conf`:

1. admin: the cloud's own tempest.conf. With --compare-with (the default
   profile's report.json) every capability must have the same verdict.
   Then every preemptible host still builds (tools/host_probe.py).
2. member-only, blazar disabled: Tempest's pre-provisioned accounts
   (``use_dynamic_credentials = False``, a test_accounts_file of member
   accounts the proof makes through keystone's API, as an operator
   would), no admin credentials, ``[service_available] blazar`` false.
   senlin stays on, so seed 002 runs as a member's clusters. Then: no
   capability fails, no test is reported "did not run", every capability
   of the service the cloud does not offer is `not-applicable` with that
   reason, every capability that needs admin is `not-applicable` with
   that reason, and every other one has the verdict of the admin run.
3. admin, ``[service_available] senlin`` false, seed 002 only: every
   capability of seed 002 is `not-applicable` for want of the service.

--conformance names the `conformance` command the three runs use: by
default the one beside this Python; .ci/run gives the one of a
virtualenv holding only Tempest, the services' own plugins and this
plugin's wheel (tools/install_proof.py), as a vendor's image has them,
so the suite a vendor installs is the one judged here.

Both reports stay under the workdir (admin/, member/). Exits 0 only when
every check holds; always stops the cloud.
"""

import argparse
import configparser
import functools
import json
import os
import subprocess
import sys
import time

import yaml

from conformance_tests.cloud import secrets
from conformance_tests.common import ui
from conformance_tests.report import build
from conformance_tests.tools import host_probe

MEMBER_ACCOUNTS = 6  # two workers, each class a primary and an alt
MEMBER_ROLE = 'member'
# service -> its seed: a run with the service disabled must find every
# capability of the seed not-applicable.
SEEDS = {'senlin': '002', 'blazar': '004'}
MEMBER_DISABLED = ('blazar',)
ADMIN_DISABLED = ('senlin',)
NEEDS_ADMIN = 'needs admin'
NOT_AVAILABLE = 'service not available'


class ProofError(Exception):
    pass


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.vendor_proof',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--profile', default=None,
                        help='cloud profile (default: vendor-like if the '
                             'embedded cloud has it, else default)')
    parser.add_argument('--compare-with', metavar='REPORT',
                        help='report.json of the default profile\'s run')
    parser.add_argument('--port-base', type=int, default=18300)
    parser.add_argument('--workdir', default=os.path.join(
        '.conformance', 'vendor-proof'))
    parser.add_argument('--conformance', metavar='PATH', default=os.path.join(
        os.path.dirname(sys.executable), 'conformance'),
        help='the conformance command the runs use (default: the one '
             'beside this Python)')
    args = parser.parse_args(argv)
    if not os.access(args.conformance, os.X_OK):
        ui.fail('--conformance %s: no such command (give the path of an '
                'installed `conformance`)' % args.conformance)
        return 2
    from conformance_tests.cloud import launcher
    from conformance_tests.cloud import profiles
    profile = args.profile or ('vendor-like' if 'vendor-like' in
                               profiles.names() else profiles.DEFAULT)
    if profile not in profiles.names():
        ui.fail('--profile %s: not one of %s' % (
            profile, ', '.join(profiles.names())))
        return 2
    reference = None
    if args.compare_with:
        try:
            reference = _verdicts(args.compare_with)
        except (OSError, ValueError, KeyError) as e:
            ui.fail('--compare-with %s: not a report.json (%s)' % (
                args.compare_with, e))
            return 2
    workdir = os.path.abspath(args.workdir)
    started = time.monotonic()
    cloud = launcher.EmbeddedCloud(os.path.join(workdir, 'cloud'),
                                   port_base=args.port_base,
                                   **profiles.settings(profile))
    try:
        cloud.up()
        problems = prove(cloud, workdir, reference,
                         os.path.abspath(args.conformance))
    except (launcher.CloudError, ProofError) as e:
        ui.fail(str(e))
        return 2
    finally:
        cloud.down()
    for problem in problems:
        ui.fail(problem)
    ui.say('vendor proof (profile %s): %s in %.0f s' % (
        profile, 'PASS' if not problems else 'FAIL (%d)' % len(problems),
        time.monotonic() - started))
    return 0 if not problems else 1


def prove(cloud, workdir, reference=None, conformance=None):
    conf_path = os.path.join(cloud.workspace, 'etc', 'tempest.conf')
    admin_dir = os.path.join(workdir, 'admin')
    ui.say('1 of 3: admin, the cloud\'s own tempest.conf, with the '
           'inventory before and after')
    run = functools.partial(_run, conformance=conformance)
    admin = run(conf_path, admin_dir, '--inventory')
    if _report(admin_dir)['summary'].get('inventory_differences'):
        problems_left = ['admin run: left behind %s' % ', '.join(
            _report(admin_dir)['summary']['inventory_differences'])]
    else:
        problems_left = []
    problems = list(problems_left)
    # left as found includes: every preemptible host still builds
    problems += ['admin run: %s' % why for why in host_probe.check(
        conf_path)]
    if reference is not None:
        problems += [
            'admin run: %s is %s, the default profile\'s run %s' % (
                cap, admin.get(cap, ('missing',))[0], want[0])
            for cap, want in sorted(reference.items())
            if admin.get(cap, ('missing',))[0] != want[0]]
    ui.say('2 of 3: member accounts only, %s disabled' % ' and '.join(
        MEMBER_DISABLED))
    member_conf = write_member_conf(cloud, conf_path, workdir)
    member = run(member_conf, os.path.join(workdir, 'member'))
    problems += judge_member_run(member, admin, _report(os.path.join(
        workdir, 'member')))
    ui.say('member-only run: %s' % _counts(member))
    ui.say('3 of 3: admin, %s disabled, seed %s only' % (
        ' and '.join(ADMIN_DISABLED), ', '.join(
            SEEDS[s] for s in ADMIN_DISABLED)))
    without_conf = write_conf_without(conf_path, workdir, ADMIN_DISABLED)
    without = run(without_conf, os.path.join(workdir, 'without-service'),
                  *['--seed=%s' % SEEDS[s] for s in ADMIN_DISABLED])
    problems += judge_run_without(without, _report(os.path.join(
        workdir, 'without-service')), ADMIN_DISABLED)
    ui.say('run without %s: %s' % (' and '.join(ADMIN_DISABLED),
                                   _counts(without)))
    return problems


def _counts(verdicts):
    counts = {}
    for status, _ in verdicts.values():
        counts[status] = counts.get(status, 0) + 1
    return ', '.join('%d %s' % (n, s) for s, n in sorted(counts.items()))


def _run(conf_path, workdir, *options, conformance=None):
    """`conformance run --tempest-conf`, as a vendor runs it; returns
    {capability: (status, explanation)}. Its exit status is judged
    through the report, not here."""
    os.makedirs(workdir, exist_ok=True)
    command = [conformance or os.path.join(
                   os.path.dirname(sys.executable), 'conformance'),
               'run', '--tempest-conf', conf_path, '--workdir',
               workdir] + list(options)
    done = subprocess.run(command, stdin=subprocess.DEVNULL)
    report = os.path.join(workdir, 'report.json')
    if not os.path.exists(report):
        raise ProofError('`%s` wrote no report (exit %d)' % (
            ' '.join(command), done.returncode))
    return _verdicts(report)


def _report(workdir):
    with open(os.path.join(workdir, 'report.json')) as f:
        return json.load(f)


def _verdicts(report_path):
    with open(report_path) as f:
        caps = json.load(f)['capabilities']
    return {c['id']: (c['status'], c.get('explanation') or '') for c in caps}


def _off_seed(seed, disabled):
    """The service of ``disabled`` whose seed ``seed`` is, or None."""
    for service in disabled:
        if seed.startswith(SEEDS[service]):
            return service
    return None


def judge_member_run(member, admin, report, disabled=MEMBER_DISABLED):
    """What a member-only run with ``disabled`` services off must show."""
    problems = []
    seeds = {c['id']: c['seed'] for c in report['capabilities']}
    for cap, (status, why) in sorted(member.items()):
        off = _off_seed(seeds[cap], disabled)
        if status == build.NOT_IN_SCOPE and admin.get(
                cap, ('missing',))[0] == build.NOT_IN_SCOPE:
            continue  # neither run selected it (a run of some seeds)
        if status == 'fail':
            problems.append('member run: %s fails: %s' % (cap, why[:300]))
        elif off:
            if status != 'not-applicable' or NOT_AVAILABLE not in why:
                problems.append(
                    'member run: %s (%s disabled) is %s, not '
                    'not-applicable for want of the service' % (
                        cap, off, status))
        elif status == 'not-applicable':
            if NEEDS_ADMIN not in why:
                problems.append('member run: %s is not-applicable for '
                                'another reason: %s' % (cap, why))
        elif status != admin.get(cap, ('missing',))[0]:
            problems.append('member run: %s is %s, the admin run %s' % (
                cap, status, admin.get(cap, ('missing',))[0]))
    for cap in report['capabilities']:
        for test in cap['tests']:
            if 'did not run' in (test.get('message') or ''):
                problems.append('member run: %s: test %s did not run' % (
                    cap['id'], test['id']))
    if report['summary']['tests_without_capability']:
        problems.append('member run: results no capability claims: %s' %
                        ', '.join(report['summary'][
                            'tests_without_capability']))
    return problems


def judge_run_without(verdicts, report, disabled):
    """What a run with ``disabled`` services off must show of their
    seeds: every capability in scope not-applicable for that reason,
    and at least one (a run that selected nothing proves nothing)."""
    seeds = {c['id']: c['seed'] for c in report['capabilities']}
    problems = []
    judged = 0
    for cap, (status, why) in sorted(verdicts.items()):
        off = _off_seed(seeds[cap], disabled)
        if not off:
            continue
        judged += 1
        if status != 'not-applicable' or NOT_AVAILABLE not in why:
            problems.append('run without %s: %s is %s, not not-applicable '
                            'for want of the service' % (off, cap, status))
    if not judged:
        problems.append('run without %s: no capability of seed %s was '
                        'judged' % (' and '.join(disabled), ', '.join(
                            SEEDS[s] for s in disabled)))
    return problems


def _conf_parser(conf_path):
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(conf_path)
    return parser


def _write_conf(parser, path):
    with secrets.private_open(path) as f:
        parser.write(f)
    return path


def write_member_conf(cloud, conf_path, workdir,
                      disabled=MEMBER_DISABLED):
    """A tempest.conf for member accounts only, ``disabled`` off."""
    return member_conf(conf_path, make_members(cloud), workdir, disabled)


def member_conf(conf_path, accounts, workdir, disabled=()):
    """The admin tempest.conf at ``conf_path`` made a member's: no admin
    credentials, Tempest's pre-provisioned ``accounts`` (written 0600
    beside it), ``disabled`` services off."""
    accounts_path = os.path.join(workdir, 'member-accounts.yaml')
    with secrets.private_open(accounts_path) as f:
        yaml.safe_dump(accounts, f, default_flow_style=False)
    parser = _conf_parser(conf_path)
    for option in ('admin_username', 'admin_password', 'admin_project_name',
                   'admin_domain_name'):
        parser.remove_option('auth', option)
    parser.set('auth', 'use_dynamic_credentials', 'false')
    parser.set('auth', 'test_accounts_file', accounts_path)
    for service in disabled:
        parser.set('service_available', service, 'false')
    return _write_conf(parser, os.path.join(workdir, 'member-tempest.conf'))


def write_conf_without(conf_path, workdir, disabled):
    """The cloud's own tempest.conf (admin) with ``disabled`` off."""
    parser = _conf_parser(conf_path)
    for service in disabled:
        parser.set('service_available', service, 'false')
    return _write_conf(parser, os.path.join(
        workdir, 'without-service-tempest.conf'))


def make_members(cloud):
    """Member accounts (each in a project of its own), made through
    keystone's API as an operator would; Tempest's accounts.yaml entries."""
    from conformance_tests.cloud import catalog
    from conformance_tests.cloud import http
    data = secrets.load(cloud.service_dir)
    uri, ca_file = _identity(cloud)
    token = catalog.admin_token(uri, data['admin'], ca_file)
    registrar = catalog.Registrar(uri, token, None, ca_file)
    role = registrar.role_id(MEMBER_ROLE)
    accounts = []
    for k in range(MEMBER_ACCOUNTS):
        # Not the suite's prefix: `conformance cleanup` must not take
        # them for a run's.
        name = 'vendor-member-%d' % k
        project = registrar.project(name)
        password = _random()
        _, _, body = http.request('POST', uri + '/users', {'user': {
            'name': name, 'password': password, 'domain_id': 'default',
            'default_project_id': project}}, token=token, ca_file=ca_file)
        http.request('PUT', uri + '/projects/%s/users/%s/roles/%s' % (
            project, body['user']['id'], role), token=token,
            ca_file=ca_file)
        # Tempest asks pre-provisioned accounts for its primary and alt
        # credentials by role.
        accounts.append({'username': name, 'password': password,
                         'project_name': name, 'domain_name': 'Default',
                         'roles': [MEMBER_ROLE]})
    return accounts


def _random():
    import secrets as stdlib_secrets
    return stdlib_secrets.token_urlsafe(12)


def _identity(cloud):
    """keystone's URL and the CA it is signed by (None: not a TLS
    cloud), as the cloud's tempest.conf gives them."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(os.path.join(cloud.workspace, 'etc', 'tempest.conf'))
    return (parser.get('identity', 'uri_v3'),
            parser.get('identity', 'ca_certificates_file', fallback=None))


if __name__ == '__main__':
    sys.exit(main())
