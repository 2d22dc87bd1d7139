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

"""One Zuul job on the DevStack node: the node up, the job's projects on
it, its pre-run, run and post-run playbooks as Zuul runs them, the
verdict read from the report its post-run playbook kept, the node down.

Zuul runs Ansible on its executor against the node over ssh; here
ansible-playbook runs on the node itself (connection ``local``) as the
``zuul`` user, which is what the node sees either way: the same user,
the same become, the same files. The executor's log directory is
/home/zuul/executor/logs on the node, copied to the workdir at the end.

Roles come from where Zuul takes them: the roles/ of each project a job
names under ``roles:`` (DevStack's, Tempest's) and of the playbook's own
project. A role of openstack-zuul-jobs or zuul-jobs, which no registry
here serves, is a stand-in from standin_roles/ (named in the summary).
The playbooks of a parent from those repositories (the tenant's base
job, openstack-multinode-fips) are not run: what they do on a gate
(push the repositories, multinode networking, FIPS) is sources.py's
layout or not needed on one node.
"""

import collections
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import yaml

from conformance_tests.common import paths
from conformance_tests.devstack import container
from conformance_tests.devstack import node_limits
from conformance_tests.devstack import one_node
from conformance_tests.devstack import sources
from conformance_tests.devstack import zuul_jobs
from conformance_tests.devstack import zuul_vars
from conformance_tests.packaged import chroot
from conformance_tests.packaged import processes

STATE = 'devstack.json'
#: Beside the logs: the job, DevStack's branch and its series, for the
#: matrix's DevStack column.
JOB_RECORD = 'job.json'
ZUUL_HOME = '/home/zuul'
SRC = ZUUL_HOME + '/src'
JOB_DIR = ZUUL_HOME + '/conformance-job'
EXTERNAL_PARENTS = ('base', 'openstack-multinode-fips')
DEVSTACK = 'opendev.org/openstack/devstack'
STANDIN_ROLES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             'standin_roles')
TEMPEST = 'opendev.org/openstack/tempest'
REQUIREMENTS = 'opendev.org/openstack/requirements'
PROXY_PORT = 3128


def default_devstack_src(checkout=None):
    """../shared/upstream beside the checkout, as the project's own
    machines and CI have it, else beside the repository the checkout was
    cloned from (a clone made anywhere of such a checkout); the first
    when neither has it, for the error to name."""
    checkout = checkout or paths.checkout() or os.getcwd()
    roots = [checkout]
    origin = subprocess.run(
        ['git', '-C', checkout, 'remote', 'get-url', 'origin'],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = origin.stdout.strip()
    if origin.returncode == 0 and url:
        url = url[len('file://'):] if url.startswith('file://') else url
        if os.path.isdir(url):
            roots.append(url)
    found = [os.path.normpath(os.path.join(root, os.pardir, 'shared',
                                           'upstream')) for root in roots]
    return next((path for path in found if os.path.isdir(path)), found[0])


def judged_release(wanted, branch, job_vars, say):
    """The conformance_release a job run on ``branch`` instead of the
    branch it names (``wanted``) must be judged by: that branch's series,
    since its services are that series' (playbooks/conformance-run.yaml
    passes it to `conformance run --release`); None when the job runs on
    its own branch or names its release itself."""
    if branch == wanted or job_vars.get('conformance_release'):
        return None
    series = sources.series_of(branch)
    say('devstack: its verdicts are judged by %s\'s expectations '
        '(conformance_release %s), the series of what it runs' % (
            series, series))
    return series


class DevStackError(chroot.PackagedError):
    """One line for the CLI (exit 2)."""


def state_path(workdir):
    return os.path.join(workdir, STATE)


def read_state(workdir):
    try:
        with open(state_path(workdir)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write_state(workdir, state):
    _write_json(state_path(workdir), state)


def own_sources():
    return zuul_jobs.Source(sources.OWN_PROJECT, paths.checkout(),
                            sorted(_yaml_files(paths.checkout(),
                                               'zuul.d')))


def _yaml_files(root, folder):
    return [os.path.join(folder, name)
            for name in os.listdir(os.path.join(root, folder))
            if name.endswith(('.yaml', '.yml'))]


def job_branch(name):
    """The branch a job of ours runs on: its nearest override-checkout,
    else master. Read from zuul.d/ alone (DevStack's tree for that branch
    is not laid out yet), so the chain may end at Tempest's job."""
    registry = zuul_jobs.load([own_sources()])
    job = zuul_jobs.resolve(
        registry, name, 'master', own_project=sources.OWN_PROJECT,
        external_parents=EXTERNAL_PARENTS + ('devstack-tempest', 'tox'))
    if 'tox' in job.external:
        raise DevStackError('job %s is not a DevStack job (its parent is '
                            'zuul-jobs\' tox): run it with tox' % name)
    return job.override_checkout or 'master'


def find_nodeset(nodeset, devstack_root):
    """The job's nodeset (DevStack's .zuul.yaml defines the ones our
    jobs use), as a dict."""
    if isinstance(nodeset, dict):
        return nodeset
    with open(os.path.join(devstack_root, '.zuul.yaml')) as f:
        entries = yaml.safe_load(f) or []
    found = next((e['nodeset'] for e in entries
                  if 'nodeset' in e and
                  e['nodeset'].get('name') == nodeset), None)
    if found is None:
        raise DevStackError('nodeset %s is not in DevStack\'s '
                            '.zuul.yaml: give the job one of its '
                            'nodesets' % nodeset)
    return found


def mirror_hosts():
    """The hosts apt and pip on the node may reach through the proxy."""
    hosts = {'pypi.org', 'files.pythonhosted.org'}
    for url in (chroot.mirror(),):
        found = re.match(r'^https?://([^/:]+)', url)
        if found:
            hosts.add(found.group(1))
    return sorted(hosts)


#: What the node adds to the job's own: its nodeset, the subnodes'
#: computes it plays (one_node.py), the DevStack plugins it adds and
#: whether heat's test image goes in its file cache.
NodePlan = collections.namedtuple('NodePlan', 'nodeset computes plugins '
                                              'heat_image')


class Run(object):
    """The node of one workdir, and one job on it."""

    def __init__(self, workdir, say):
        self.workdir = os.path.abspath(workdir)
        self.say = say
        self.node = container.Node(os.path.join(self.workdir, 'node'))
        self.logs = os.path.join(self.workdir, 'logs')
        self.failed = None
        self.post_failed = []

    # -- the node ---------------------------------------------------------

    def up(self, job_name, devstack_src):
        """The node booted with the job's projects and files; a failure
        on the way takes down what was started (nothing left running)."""
        os.makedirs(self.workdir, exist_ok=True)
        container.require_host(self.say, os.path.join(
            self.workdir, 'host-packages.log'))
        if read_state(self.workdir):
            raise DevStackError(
                'a node is already up in %s: run `conformance devstack '
                'down --workdir %s` first' % (self.workdir, self.workdir))
        try:
            return self._up(job_name, devstack_src)
        except BaseException:
            self.down()
            raise

    def _up(self, job_name, devstack_src):
        wanted = job_branch(job_name)
        branch = sources.source_branch(wanted)
        if branch != wanted:
            self.say('devstack: %s runs on %s here: no release of %s is on '
                     'PyPI, and one series\' releases need its own '
                     'DevStack and constraints' % (job_name, branch, wanted))
        # An earlier run's report must never be read as this run's.
        shutil.rmtree(self.logs, ignore_errors=True)
        os.makedirs(self.logs)
        record = {'job': job_name, 'branch': branch,
                  'series': sources.series_of(branch)}
        _write_json(os.path.join(self.logs, JOB_RECORD), record)
        started = time.monotonic()
        container.build(self.say)
        self.say('devstack: node root ready (%.0f s)' % (
            time.monotonic() - started))
        self.node.mount()
        _write_state(self.workdir, {'job': job_name, 'branch': branch})
        self._prepare_root()
        src_root = self.node.root + SRC
        cache = container.sdist_cache()
        base = [DEVSTACK, REQUIREMENTS, TEMPEST]
        sources.lay_out(src_root, [DEVSTACK, REQUIREMENTS], branch,
                        devstack_src, cache, self.say)
        job = self.resolve(job_name, branch, src_root, cache, devstack_src)
        required = list(dict.fromkeys(base + job.required_projects +
                                      [sources.OWN_PROJECT]))
        missing = sources.lay_out(
            src_root, [p for p in required if p not in base], branch,
            devstack_src, cache, self.say, job.override_checkouts)
        for canonical, why in missing:
            self.say('devstack: %s not on the node: %s' % (canonical, why))
        nodeset = find_nodeset(job.nodeset, os.path.join(src_root,
                                                         DEVSTACK))
        try:
            computes = one_node.subnode_computes(job, nodeset, self.say)
        except one_node.NodesetError as e:
            raise DevStackError(str(e))
        heat = node_limits.heat_test_config(job.vars, self.say)
        node_plugins = dict(heat)
        if computes:
            node_plugins[node_limits.NODE_PLUGIN] = node_limits.NODE_PLUGIN_URL
        sources.lay_out(src_root, [sources.OPENSTACK + name
                                   for name in node_plugins],
                        branch, devstack_src, cache, self.say)
        record['versions'] = sources.release_versions(
            required, branch, job.override_checkouts)
        _write_json(os.path.join(self.logs, JOB_RECORD), record)
        nspawn, leader = self.node.boot(self.say)
        state = read_state(self.workdir)
        state.update({'nspawn': nspawn, 'leader': leader,
                      'missing': missing})
        _write_state(self.workdir, state)
        state['proxy'] = self._start_proxy(leader)
        _write_state(self.workdir, state)
        self._write_job_files(
            job, required, NodePlan(nodeset, computes, node_plugins,
                                    bool(heat)),
            judged_release(wanted, branch, job.vars, self.say))
        self.say('devstack: node up, %s on %s (%.0f s)' % (
            job_name, branch, time.monotonic() - started))
        return job

    def resolve(self, name, branch, src_root, cache, devstack_src):
        """The job frozen as Zuul freezes it: Tempest's zuul.d/ and
        DevStack's .zuul.yaml of the branch are read from the node."""
        if not os.path.isdir(os.path.join(src_root, TEMPEST)):
            sources.lay_out(src_root, [TEMPEST], branch, devstack_src,
                            cache, self.say)
        tempest_root = os.path.join(src_root, TEMPEST)
        devstack_root = os.path.join(src_root, DEVSTACK)
        registry = zuul_jobs.load([
            own_sources(),
            zuul_jobs.Source(DEVSTACK, devstack_root, ['.zuul.yaml']),
            zuul_jobs.Source(TEMPEST, tempest_root,
                             sorted(_yaml_files(tempest_root, 'zuul.d'))),
        ])
        return zuul_jobs.resolve(registry, name, branch,
                                 external_parents=EXTERNAL_PARENTS,
                                 own_project=sources.OWN_PROJECT)

    def _prepare_root(self):
        """What a nodepool image has: the zuul user with sudo, the
        node's name resolving to its address, and the proxy configured
        for apt, pip and the login environment."""
        root = self.node.root
        proxy = 'http://127.0.0.1:%d' % PROXY_PORT
        subprocess.run(chroot.command(root, [
            'useradd', '--create-home', '--shell', '/bin/bash', 'zuul']),
            check=True, env=container.NODE_ENV)
        _write(root, '/etc/sudoers.d/zuul',
               'zuul ALL=(ALL) NOPASSWD:ALL\n', 0o440)
        # The executor's key: made per node, never leaves its root.
        key = zuul_vars.SSH_KEY
        os.makedirs(os.path.dirname(root + key), mode=0o700, exist_ok=True)
        subprocess.run(chroot.command(root, [
            'ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C',
            'conformance-executor', '-f', key]), check=True,
            stdout=subprocess.DEVNULL, env=container.NODE_ENV)
        shutil.copy(root + key + '.pub',
                    os.path.join(os.path.dirname(root + key),
                                 'authorized_keys'))
        _write(root, '/etc/hosts', '127.0.0.1 localhost\n%s %s\n' % (
            container.NODE_IP, container.HOSTNAME))
        _write(root, '/etc/apt/apt.conf.d/80conformance-proxy',
               'Acquire::http::Proxy "%s";\nAcquire::https::Proxy "%s";\n'
               % (proxy, proxy))
        _write(root, '/etc/pip.conf', '[global]\nproxy = %s\ncert = '
               '/etc/ssl/certs/ca-certificates.crt\n' % proxy)
        # The machine's own authorities (an egress proxy's CA among
        # them): what the node reaches, it reaches through this machine.
        local_cas = '/usr/local/share/ca-certificates'
        if os.path.isdir(local_cas):
            shutil.copytree(local_cas, root + local_cas, dirs_exist_ok=True)
            subprocess.run(chroot.command(root, ['update-ca-certificates']),
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=container.NODE_ENV)
        no_proxy = ','.join(('localhost', '127.0.0.1', container.NODE_IP,
                             container.HOSTNAME))
        _write(root, '/etc/environment',
               'http_proxy=%s\nhttps_proxy=%s\nno_proxy=%s\n' % (
                   proxy, proxy, no_proxy))

    def _start_proxy(self, leader):
        log = os.path.join(self.logs, 'proxy.log')
        proc = subprocess.Popen(
            [sys.executable, '-m', 'conformance_tests.devstack.proxy',
             '--leader', str(leader), '--port', str(PROXY_PORT),
             '--log', log] +
            ['--allow=%s' % host for host in mirror_hosts()],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(log, 'a'), start_new_session=True)
        time.sleep(1)
        if proc.poll() is not None:
            raise DevStackError('the node\'s proxy exited (%d); see %s' % (
                proc.returncode, log))
        return proc.pid

    def _write_job_files(self, job, required, plan, release=None):
        job_dir = self.node.root + JOB_DIR
        os.makedirs(job_dir, exist_ok=True)
        for sub in ('logs', 'work'):
            os.makedirs(self.node.root + zuul_vars.EXECUTOR_ROOT + '/' + sub,
                        exist_ok=True)
        try:
            groups = one_node.node_groups(plan.nodeset)
        except one_node.NodesetError as e:
            raise DevStackError(str(e))
        # As Ansible gives a host its variables: the job's, each of its
        # groups' over them, then its host-vars.
        node_vars = dict(job.vars)
        for group in groups:
            node_vars.update(job.group_vars.get(group) or {})
        node_vars.update(job.host_vars.get(container.HOSTNAME, {}))
        job_localrc = node_vars.get('devstack_localrc') or {}
        job_services = node_vars.get('devstack_services') or {}
        (node_vars['devstack_localrc'],
         node_vars['devstack_services']) = node_limits.apply(
            job_localrc, job_services, self.say)
        node_vars['devstack_localrc'].update(one_node.localrc(plan.computes))
        node_vars['devstack_local_conf'] = node_limits.nova_config(
            node_limits.tempest_config(
                node_vars.get('devstack_local_conf'),
                node_vars['devstack_services'], self.say),
            job_localrc, job_services, self.say)
        node_limits.write_fake_image(self.node.root)
        if plan.plugins:
            node_vars['devstack_plugins'] = dict(
                node_vars.get('devstack_plugins') or {}, **plan.plugins)
        if plan.heat_image:
            node_limits.write_heat_test_image(self.node.root)
        for path, text in node_limits.node_files().items():
            _write(self.node.root, path, text)
        if release:
            node_vars['conformance_release'] = release
        node_vars['zuul'] = zuul_vars.zuul_dict(
            job, required, sources.OWN_PROJECT, src_root_in_node='src')
        zuul_vars.write(os.path.join(job_dir, 'inventory.yaml'),
                        zuul_vars.inventory(groups, node_vars))
        shutil.copytree(STANDIN_ROLES, self.node.root + JOB_DIR +
                        '/standin_roles', dirs_exist_ok=True)
        self._in_node(['chown', '-R', 'zuul:zuul', ZUUL_HOME])

    def roles_path(self, job, playbook):
        """Where Ansible finds roles for ``playbook``: the roles/ of the
        projects Zuul gives it (its own, those named under ``roles:`` up
        to the job that adds it), where they are on the node, then the
        stand-ins."""
        found = []
        for name in job.playbook_roles.get(playbook, [playbook.project]):
            path = os.path.join(SRC, name, 'roles')
            if os.path.isdir(self.node.root + path) and path not in found:
                found.append(path)
        return found + [JOB_DIR + '/standin_roles']

    def _in_node(self, argv, log=None, user=None, env=None, cwd='/'):
        state = read_state(self.workdir)
        if user:
            argv = ['runuser', '-u', user, '--'] + list(argv)
        command = container.enter(state['leader'], argv, env=env, cwd=cwd)
        if log is None:
            return subprocess.run(command, check=True,
                                  stdout=subprocess.DEVNULL)
        with open(log, 'a') as out:
            return subprocess.run(command, stdout=out,
                                  stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)

    # -- the job's playbooks ----------------------------------------------

    def playbooks(self, job, phases=('pre_run', 'run', 'post_run')):
        """Each playbook of the phases in Zuul's order; False at the first
        pre-run or run playbook that fails (post-run always runs)."""
        ok = True
        self.failed = None
        self.post_failed = []
        if not self._gather_facts():
            self.failed = self._log_name('setup', 'facts')
            return False
        for phase in phases:
            for project, playbook in getattr(job, phase):
                if not ok and phase != 'post_run':
                    break
                if not self._playbook(job, phase, project, playbook):
                    if phase != 'post_run':
                        ok = False
                        self.failed = self._log_name(phase, playbook)
                    else:
                        # Zuul's POST_FAILURE: the job fails all the same.
                        self.post_failed.append(self._log_name(phase,
                                                               playbook))
        return ok

    def _ansible_env(self, roles_path=()):
        return {'HOME': ZUUL_HOME, 'USER': 'zuul',
                'ANSIBLE_ROLES_PATH': ':'.join(roles_path),
                # Zuul's executor runs Ansible with pipelining on: become
                # to an unprivileged user (stack, tempest) needs no
                # temporary file another user must read.
                'ANSIBLE_PIPELINING': 'True',
                # ... and gathers the facts once, as the node's user, before
                # the first playbook, then keeps them (smart gathering, a
                # jsonfile cache): a play with become still sees the zuul
                # user's ansible_user_dir, as DevStack's post.yaml expects.
                'ANSIBLE_GATHERING': 'smart',
                'ANSIBLE_CACHE_PLUGIN': 'jsonfile',
                'ANSIBLE_CACHE_PLUGIN_CONNECTION': JOB_DIR + '/fact-cache',
                'ANSIBLE_FORCE_COLOR': '0', 'ANSIBLE_NOCOLOR': '1',
                'ANSIBLE_HOST_KEY_CHECKING': 'False'}

    def _gather_facts(self):
        log = self._log_name('setup', 'facts')
        done = self._in_node(
            ['ansible', '-i', JOB_DIR + '/inventory.yaml', 'all', '-m',
             'setup'], log=log, user='zuul', env=self._ansible_env(),
            cwd=ZUUL_HOME)
        if done.returncode:
            self.say('devstack: FAILED (exit %d) gathering the node\'s facts '
                     '(log %s)' % (done.returncode, log))
        return done.returncode == 0

    def _log_name(self, phase, playbook):
        return os.path.join(self.logs, '%s-%s.log' % (
            phase, playbook.replace('/', '_')))

    def stack_failure(self):
        """One line when the failed playbook is the one that runs
        stack.sh and stack.sh failed: where and why it stopped, and its
        log (copied out by collect); None otherwise."""
        if not self.failed or not os.path.exists(self.failed):
            return None
        with open(self.failed, errors='replace') as f:
            text = f.read()
        if not re.search(r'TASK \[run-devstack : Run devstack\][^\n]*\n'
                         r'fatal:', text):
            return None
        logs = sorted(p for p in glob.glob(os.path.join(
            self.logs, 'opt-stack-logs', 'devstacklog.txt.*[0-9]'))
            if '.summary' not in p)
        if not logs:
            return 'stack.sh failed and left no devstacklog.txt; see %s' % (
                self.failed)
        with open(logs[-1], errors='replace') as f:
            cause = stack_log_cause(f.read().splitlines())
        return 'stack.sh failed%s; see %s' % (
            ': ' + cause if cause else ' (no cause found in its log)',
            logs[-1])

    def _playbook(self, job, phase, project, playbook):
        log = self._log_name(phase, playbook)
        started = time.monotonic()
        self.say('devstack: %s %s of %s (log %s)' % (
            phase.replace('_', '-'), playbook, project.rsplit('/', 1)[-1],
            log))
        env = self._ansible_env(self.roles_path(
            job, zuul_jobs.Playbook(project, playbook)))
        done = self._in_node(
            ['ansible-playbook', '-i', JOB_DIR + '/inventory.yaml',
             os.path.join(SRC, project, playbook)],
            # Over ssh a module runs in the user's home: relative paths
            # of the roles (src/opendev.org/...) start there.
            log=log, user='zuul', env=env, cwd=ZUUL_HOME)
        self.say('devstack: %s %s (%.0f s)' % (
            'ok' if done.returncode == 0 else
            'FAILED (exit %d)' % done.returncode, playbook,
            time.monotonic() - started))
        return done.returncode == 0

    # -- the verdict -------------------------------------------------------

    def collect(self):
        """Copy the executor's logs and DevStack's out of the node; the
        report the post-run playbook kept in the stage dir, or None."""
        if not read_state(self.workdir):
            return None
        kept = ((zuul_vars.EXECUTOR_ROOT + '/logs', 'zuul'),
                ('/opt/stack/logs', 'opt-stack-logs'),
                (zuul_vars.STAGE_DIR + '/conformance', 'conformance'))
        for inside, name in kept:
            source = self.node.root + inside
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(self.logs, name),
                                symlinks=True, dirs_exist_ok=True,
                                ignore_dangling_symlinks=True)
        path = os.path.join(self.logs, 'conformance', 'report.json')
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return json.load(f)

    # -- down -------------------------------------------------------------

    def down(self):
        """Stop the node and its proxy, undo every mount; idempotent."""
        state = read_state(self.workdir) or {}
        if state.get('leader'):
            # A killed run leaves its nsenter (ansible-playbook's way into
            # the node) on the machine. The node's shutdown stops every
            # process before it kills them; nsenter then stops itself
            # with its child and never reaps it, and the node's systemd
            # waits on that zombie for good. Nothing it runs is needed.
            for pid in container.entering(state['leader']):
                os.kill(pid, signal.SIGKILL)
        for key in ('proxy', 'nspawn'):
            pid = state.get(key)
            if pid and processes.alive(pid):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(
                state.get(k) and processes.alive(state[k])
                for k in ('proxy', 'nspawn')):
            time.sleep(1)
        for key in ('proxy', 'nspawn'):
            pid = state.get(key)
            if pid and processes.alive(pid):
                os.kill(pid, signal.SIGKILL)
        # The node's systemd too, if it outlived nspawn: its pid
        # namespace, and every process in it, dies with it.
        leader = state.get('leader')
        if leader and container.is_namespace_init(leader):
            os.kill(leader, signal.SIGKILL)
        chroot.unmount_all(self.node.root)
        # The node's writes (DevStack, its databases) go with it; the
        # logs stay in the workdir.
        shutil.rmtree(self.node.workdir, ignore_errors=True)
        if os.path.exists(state_path(self.workdir)):
            os.unlink(state_path(self.workdir))


def _write_json(path, data):
    with open(path, 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)


def read_job_record(workdir):
    """What a run in ``workdir`` ran: {job, branch, series}; None when
    no run started there."""
    try:
        with open(os.path.join(workdir, 'logs', JOB_RECORD)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write(root, path, text, mode=0o644):
    target = root + path
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, 'w') as f:
        f.write(text)
    os.chmod(target, mode)


#: A DevStack log line: "<date> <time> | <text>"; an xtrace line's text
#: starts with "+" ("+ lib/host:configure_ksm:19 :   sudo tee ...").
_LOG_LINE = re.compile(r'^\d{4}-\d\d-\d\d [\d:.]+ \| ?(.*)$')
_TRACE = re.compile(r'^\++ (\S+):\d+\s+:\s+(.*)$')
#: A frame of DevStack's [Call Trace]: "<file>:<line>:<function>".
_FRAME = re.compile(r'^\S+:\d+:\S+$')
_DIE = re.compile(r'^\++ \S+\s+:\s+die (.*)$')
_ERRORISH = re.compile(r'error|fail|denied|read-only|not found|no such|'
                       r'cannot|unable|refused', re.IGNORECASE)


def stack_log_cause(lines, window=40):
    """Why stack.sh stopped, from its devstacklog lines: "<where>:
    <message>". Where: the functions of DevStack's [Call Trace] (a
    ``die``), else the function whose command trapped (``exit_trap``).
    The message: what was given to ``die`` (with the output just before
    it), else DevStack's own [ERROR] line, else the last output line
    that reads like an error, else the last output line. None when the
    log never reached either."""
    texts = [_LOG_LINE.match(line) for line in lines]
    texts = [m.group(1) if m else line for m, line in zip(texts, lines)]
    # exit_trap: a command failed under set -e; err_trap (2026.1 and
    # newer): a command failed under its ERR trap, traced on the line
    # after the command.
    trap = next((k for k, t in enumerate(texts)
                 if t.startswith('+') and t.rstrip().endswith(
                     (':   exit_trap', ':   err_trap'))), None)
    calls = next((k for k, t in enumerate(texts)
                  if t.strip() == '[Call Trace]'), None)
    # A command in a plugin's function that failed under set -e may
    # leave neither trap traced: exit_trap's own "Error on exit" is the
    # end, and the traced line before the failure's output says where.
    exited = next((k for k, t in enumerate(texts)
                   if t.strip() == 'Error on exit'), None)
    ends = [k for k in (trap, calls) if k is not None]
    if not ends and exited is not None:
        trap = _last_traced_before(texts, exited)
        ends = [] if trap is None else [exited]
    if not ends:
        return None
    end = min(ends)
    if end == calls:
        where = _call_trace_functions(texts[calls + 1:])
    else:
        at = trap
        if texts[trap].rstrip().endswith('err_trap'):
            # err_trap is traced where its trap fired (stack.sh's main);
            # the command that failed is the traced line before it.
            at = _last_traced_before(texts, trap)
            at = trap if at is None else at
        traced = _TRACE.match(texts[at])
        where = traced.group(1) if traced else ''
    message = _failure_message(texts[max(0, end - window):end])
    return '%s: %s' % (where or 'stack.sh', message[:400])


def _last_traced_before(texts, end):
    """Index of the last ``set -x`` trace line before ``end``, or None."""
    return next((k for k in range(end - 1, -1, -1)
                 if _TRACE.match(texts[k])), None)


def _call_trace_functions(after):
    """The last two functions of DevStack's [Call Trace] (its lines
    ``after`` the header), ``die`` left out: "caller > function"."""
    frames = []
    for text in after:
        if not _FRAME.match(text.strip()):
            break
        frames.append(text.strip().rsplit(':', 1)[-1])
    return ' > '.join([f for f in frames if f != 'die'][-2:])


def _failure_message(before):
    """The failure's message from the log lines ``before`` its end."""
    output = [t.strip() for t in before
              if t.strip() and not t.startswith('+')]
    # DevStack's die: its traced call holds the whole message (the
    # [ERROR] line it prints may be cut short), and the lines just
    # before it often name what is at fault.
    died = [k for k, t in enumerate(before) if _DIE.match(t)]
    if died:
        message = _unquoted(_DIE.match(before[died[-1]]).group(1))
        context = [t.strip() for t in before[max(0, died[-1] - 6):died[-1]]
                   if t.strip() and not t.startswith('+')][-2:]
        if context:
            message += ' (%s)' % ' '.join(context)
        return message
    return (next((t for t in reversed(output) if '[ERROR]' in t), None)
            or next((t for t in reversed(output) if _ERRORISH.search(t)),
                    None)
            or (output[-1] if output else 'no output before it'))


def _unquoted(words):
    """die's traced arguments as the shell gave them, joined, without
    the line number most callers pass first (``die $LINENO "..."``)."""
    try:
        split = shlex.split(words)
    except ValueError:
        return words
    if len(split) > 1 and split[0].isdigit():
        split = split[1:]
    return ' '.join(split)
