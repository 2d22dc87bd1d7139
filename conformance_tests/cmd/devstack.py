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

"""`conformance devstack up|run|down|status --job NAME`: one of the
project's Zuul jobs on a real DevStack, in a systemd-nspawn node on this
machine (conformance_tests/devstack/).

    conformance devstack up --job J     node up, the job's projects on it,
                                        its pre-run playbooks
    conformance devstack run --job J    up, the run and post-run
                                        playbooks (stack.sh, the suite),
                                        the job's verdicts, down
    conformance devstack status         what runs, where the logs are
    conformance devstack down           stop the node and its proxy,
                                        undo every mount
"""

import json
import os
import time

from conformance_tests.cmd import base
from conformance_tests.cmd.errors import CommandError
from conformance_tests.common import ui

DEFAULT_WORKDIR = os.path.join('.conformance', 'devstack')


class DevStackCommandError(CommandError):
    """One line for cmd/main.py to print (exit 2)."""


def add_parser(sub):
    parser = sub.add_parser('devstack', help=(
        'a Zuul job of zuul.d/ on a real DevStack in a systemd-nspawn '
        'node here (needs root and systemd-container)'))
    actions = parser.add_subparsers(dest='action', required=True)
    for name, text in (
            ('up', 'boot the node, lay out the job\'s projects, run its '
                   'pre-run playbooks'),
            ('run', 'up, the job\'s run and post-run playbooks, its '
                    'verdicts, then down'),
            ('status', 'whether a node is up, and where its logs are'),
            ('down', 'stop the node and its proxy, undo its mounts')):
        action = actions.add_parser(name, help=text)
        action.add_argument('--workdir', default=DEFAULT_WORKDIR,
                            help='where the node and its logs live '
                                 '(default: %(default)s)')
        if name in ('up', 'run'):
            action.add_argument('--job', required=True,
                                help='a job of zuul.d/, e.g. '
                                     'conformance-placement')
            action.add_argument(
                '--devstack-src', default=None,
                help='a directory holding devstack-<branch>.tar.gz and '
                     'requirements-<branch>.tar.gz (or devstack/ and '
                     'requirements/ checkouts); default: ../shared/'
                     'upstream beside the checkout, else beside the '
                     'repository it was cloned from')
        if name == 'run':
            action.add_argument('--keep', action='store_true',
                                help='leave the node up after the job')
        action.set_defaults(func=cmd_devstack)
    return parser


class DevStackUp(base.Command):
    name = 'devstack up'


class DevStackRun(base.Command):
    name = 'devstack run'


class DevStackStatus(base.Command):
    name = 'devstack status'


class DevStackDown(base.Command):
    name = 'devstack down'


def cmd_devstack(args):
    from conformance_tests.devstack import deploy
    from conformance_tests.devstack import sources
    from conformance_tests.devstack import zuul_jobs
    run = deploy.Run(args.workdir, say=ui.say)
    try:
        if args.action == 'status':
            return _status(run, deploy)
        if args.action == 'down':
            run.down()
            ui.say('devstack: down (no node, proxy or mount left in %s)' %
                   run.workdir)
            return 0
        src = args.devstack_src or deploy.default_devstack_src()
        if args.action == 'up':
            job = run.up(args.job, src)
            if not run.playbooks(job, phases=('pre_run',)):
                raise DevStackCommandError(
                    'a pre-run playbook of %s failed; see %s (the node is '
                    'up: `conformance devstack down`)' % (args.job,
                                                          run.logs))
            return 0
        return _run(run, args, src)
    except (deploy.DevStackError, sources.SourceError,
            zuul_jobs.JobError) as e:
        raise DevStackCommandError(str(e))


def _status(run, deploy):
    state = deploy.read_state(run.workdir)
    if not state:
        ui.say('devstack: no node in %s' % run.workdir)
        return 0
    for key in ('nspawn', 'proxy'):
        pid = state.get(key)
        running = bool(pid) and deploy.processes.alive(pid)
        print('%-8s %-8s %s' % (key, pid,
                                'running' if running else 'stopped'))
    print('job: %s on %s; logs: %s' % (
        state.get('job'), state.get('branch'), run.logs))
    return 0


def _run(run, args, src):
    started = time.monotonic()
    timings = {}
    try:
        step = time.monotonic()
        job = run.up(args.job, src)
        timings['up'] = time.monotonic() - step
        step = time.monotonic()
        played = run.playbooks(job)
        timings['playbooks'] = time.monotonic() - step
        report = run.collect()
    finally:
        if not args.keep:
            step = time.monotonic()
            run.down()
            timings['down'] = time.monotonic() - step
    failure = run.stack_failure()
    if failure:
        raise DevStackCommandError(failure)
    problems = _judge(played, report, run)
    for problem in problems:
        ui.fail(problem)
    ui.say('devstack: %s %s in %.0f s (%s)' % (
        args.job, 'as expected' if not problems else
        'NOT as expected (%d)' % len(problems), time.monotonic() - started,
        ', '.join('%s %.0f s' % item for item in timings.items())))
    with open(os.path.join(run.workdir, 'timings.json'), 'w') as f:
        json.dump(timings, f)
    return 1 if problems else 0


def _judge(played, report, run):
    from conformance_tests.report import build
    from conformance_tests.report import deployment
    from conformance_tests.report import guidelines
    problems = []
    if not played:
        problems.append('a playbook of the job failed; see %s' % run.logs)
    for log in run.post_failed:
        problems.append('a post-run playbook failed (Zuul: POST_FAILURE); '
                        'see %s' % log)
    if report is None:
        problems.append('the job kept no report.json; see %s' % run.logs)
        return problems
    counts = {}
    for cap in report['capabilities']:
        counts[cap['status']] = counts.get(cap['status'], 0) + 1
        print('%-60s %s' % (cap['id'], cap['status']))
    ui.say('devstack: %s' % ', '.join(
        '%d %s' % (n, status) for status, n in sorted(counts.items())))
    problems += build.not_as_expected(report)
    # The job runs as DevStack's admin: what is missing is the
    # deployment's, and a guideline must say what (by_deployment).
    problems += deployment.unexplained_not_applicable(
        report, guidelines.load_all(), deployment.DEVSTACK)
    return problems
