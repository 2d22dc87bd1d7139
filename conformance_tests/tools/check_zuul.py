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

"""pep8 check: the Zuul config is consistent and its DevStack jobs can pass.

The schema (unknown keys, the shape of jobs, nodesets, project-templates,
playbook paths) is zuulcilint's, and the playbooks' Ansible is
ansible-lint's (tox.ini's pep8). This check keeps what neither knows:
jobs of this tree named in a pipeline or as a parent but defined nowhere,
abstract jobs in a pipeline, unknown pipelines, duplicate job names.

Rules learned from DevStack jobs that could never go green:

- DevStack first. Zuul runs pre-run playbooks before any run playbook and
  the devstack jobs install DevStack in the run phase, so a pre-run
  playbook of a DevStack job must need nothing DevStack makes (see
  NEEDS_DEVSTACK); a job that runs the suite lists a playbook installing
  DevStack (orchestrate-devstack) in its run list, before any playbook
  that needs DevStack.
- No literal secrets in zuul.d/ or playbooks/: passwords come from
  DevStack's variables (devstack_localrc.DATABASE_PASSWORD ...) or from
  the service's own config, never from a literal such as `secretmysql`.
- Seeds decide the cloud: a job whose conformance_seeds holds a seed of
  SEED_CONFIG sets what that seed's tests need (seed 001: nova's [quota]
  count_usage_from_placement = True and Tempest's [conformance]
  quota_usage_from_placement = true).
- Quota counts under the fake driver: DevStack's fake virt driver sets
  nova's [quota] driver = nova.quota.NoopQuotaDriver (every usage -1),
  so a job with VIRT_DRIVER=fake running a seed whose tests count quota
  (QUOTA_SEEDS) names a counting driver in nova.conf's post-config.
- Scope by seed: every job that runs the suite names its seeds in
  conformance_seeds (seeds that exist in guidelines/) and runs
  `conformance run ... --seed`; no hand-written tempest_test_regex.

Rules learned from jobs wired unlike the ecosystem's (issue 63):

- Results where the ecosystem looks: a DevStack job's post-run loads the
  suite's subunit into Tempest's stestr repository (`stestr load` in
  Tempest's directory), where tempest's post-run (fetch-subunit-output,
  process-stackviz) makes testr_results.html and stackviz; a copy of
  the stream for devstack-tempest goes to the stage dir, never to
  /opt/stack.
- report.html is kept: the post-run names it and puts it where a log
  publisher looks (a stage dir named in zuul_copy_output, or a fetch to
  zuul.executor.log_root).
- Every `conformance run` of a DevStack job passes --inventory.
- A job that names tempest_plugins lists each in required-projects, so
  that other projects' changes can run it.
- Every DevStack job has irrelevant-files that cover the docs.
- `tox -e check` needs root: it never runs through tox's own run
  playbook (as the zuul user) or a task without become; and the tree
  has a bindep.txt that names the system packages the check installs.
- A job on an unmaintained branch names the constraints Tempest's
  virtualenv installs under (TEMPEST_VENV_UPPER_CONSTRAINTS), and a
  Tempest it checks out is DevStack's TEMPEST_BRANCH too.
"""

import glob
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# Upstream parents (devstack, tempest) whose jobs install DevStack in
# the run phase.
DEVSTACK_PARENTS = {'devstack', 'devstack-tempest', 'devstack-multinode',
                    'tempest-full-py3'}
# Jobs named so are this tree's: a pipeline or a parent naming one that
# is not defined here names a job that exists nowhere. Other names are
# upstream's (templates' jobs, zuul-jobs' parents), which zuul resolves.
OWN_JOB = re.compile(r'^conformance-')
# OpenDev's pipelines, and what else a project or project-template holds.
PIPELINES = {'check', 'gate', 'periodic', 'periodic-weekly', 'experimental',
             'post', 'promote', 'release', 'tag', 'pre-release'}
PROJECT_KEYS = {'name', 'description', 'templates', 'queue', 'vars',
                'default-branch', 'merge-mode'}

# What only a running DevStack provides: a playbook naming one of these
# needs DevStack installed first.
NEEDS_DEVSTACK = [
    ('/opt/stack', re.compile(r'/opt/stack\b')),
    ('devstack_base_dir', re.compile(r'\bdevstack_base_dir\b')),
    ("DevStack's openrc", re.compile(r'\bopenrc\b')),
    ('nova-manage', re.compile(r'\bnova-manage\b')),
    ('the openstack CLI', re.compile(r'(?:^|[\s;&|(`])openstack\s+[a-z]',
                                     re.M)),
    ("DevStack's MySQL", re.compile(r'\b(?:mysql|mariadb)\b')),
    ("DevStack's services (devstack@ units)", re.compile(r'devstack@')),
    ("nova's config", re.compile(r'/etc/nova\b|\$NOVA_CONF\b')),
    ("Tempest's config", re.compile(r'tempest\.conf\b|\$TEMPEST_CONFIG\b')),
    ('the conformance command', re.compile(
        r'\bconformance\s+(?:run|report|cleanup|mutants)\b')),
]
INSTALLS_DEVSTACK = re.compile(r'\b(?:orchestrate-devstack|run-devstack)\b')
RELEASE_BRANCH = re.compile(r'^(?:stable|unmaintained)/(\d{4}\.\d)$')
RUNS_SUITE = re.compile(r'\bconformance run\b')
BY_SEED = re.compile(r'--seed\b')
INCLUDES = re.compile(
    r'^\s*-?\s*(?:import_playbook|include_tasks|import_tasks):\s*'
    r'["\']?([^"\'\s{}]+)', re.M)

# The secrets DevStack's Zuul jobs set (DATABASE_PASSWORD: secretdatabase
# ...) and its historic defaults: never spelled out in our files.
DEVSTACK_SECRETS = re.compile(
    r'\b(?:secret(?:database|mysql|admin|service|rabbit)|secrete)\b')
PASSWORD_KEY = re.compile(
    r'(?i)\b\w*(?:password|passwd)\w*["\']?\s*[:=]\s*(?P<value>\S.*)$')
PASSWORD_OPTION = re.compile(r'--password[= ](?P<value>\S+)')
MYSQL_P = re.compile(r'(?:^|\s)-p(?P<value>\S+)')
IDENTIFIED_BY = re.compile(r'(?i)\bidentified\s+by\s+(?P<value>\S+)')
SHELL_DEFAULT = re.compile(r'\$\{\w+:?-(?P<default>[^}$]+)\}')

# What a seed's tests need from the cloud: (path in the job's vars, what
# it sets). Seed 001 is about usage counted from placement; on a nova
# counting it the legacy way its tests cannot pass.
SEED_CONFIG = {
    '001': [
        (('devstack_local_conf', 'post-config', '$NOVA_CONF', 'quota',
          'count_usage_from_placement'),
         "nova's [quota] count_usage_from_placement = True "
         '(devstack_local_conf post-config $NOVA_CONF)'),
        (('devstack_local_conf', 'test-config', '$TEMPEST_CONFIG',
          'conformance', 'quota_usage_from_placement'),
         "Tempest's [conformance] quota_usage_from_placement = true "
         '(devstack_local_conf test-config $TEMPEST_CONFIG)'),
    ],
}


def _playbooks(job, keys=('pre-run', 'run', 'post-run')):
    for key in keys:
        value = job.get(key) or []
        for playbook in [value] if isinstance(value, (str, dict)) else value:
            if isinstance(playbook, dict):
                playbook = playbook.get('name', '')
            yield key, playbook


def _code(text):
    """The text without full-line comments: prose may name anything."""
    return '\n'.join(line for line in text.splitlines()
                     if not line.lstrip().startswith('#'))


def _playbook_code(root, path, seen=None):
    """A playbook's code with the playbooks and task files it includes."""
    seen = set() if seen is None else seen
    full = os.path.normpath(os.path.join(root, path))
    if full in seen or not os.path.isfile(full):
        return ''
    seen.add(full)
    with open(full) as f:
        code = _code(f.read())
    parts = [code]
    for included in INCLUDES.findall(code):
        parts.append(_playbook_code(
            root, os.path.join(os.path.dirname(path), included), seen))
    return '\n'.join(parts)


def _needs_devstack(code):
    return [what for what, pattern in NEEDS_DEVSTACK if pattern.search(code)]


def _chain(name, jobs):
    """The job and its parents that are defined in this tree, child first."""
    chain = []
    while name in jobs and jobs[name] not in chain:
        chain.append(jobs[name])
        name = jobs[name].get('parent')
    return chain, name


def _merge(base, over):
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _effective_vars(name, jobs):
    # Zuul merges a child's vars into its parent's, dictionaries deeply.
    merged = {}
    for job in reversed(_chain(name, jobs)[0]):
        merged = _merge(merged, job.get('vars') or {})
    return merged


def _effective_run(name, jobs):
    """The run list the job runs, or None when it is an upstream one."""
    for job in _chain(name, jobs)[0]:
        if job.get('run'):
            return [p for _, p in _playbooks(job, ('run',))]
    return None


def _runs_on_devstack(name, jobs):
    return _chain(name, jobs)[1] in DEVSTACK_PARENTS


def _lookup(tree, path):
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return None
        tree = tree[key]
    return tree


def _is_true(value):
    return value is True or str(value).strip().lower() == 'true'


def _known_seeds(root):
    seeds = set()
    for path in glob.glob(os.path.join(root, 'guidelines', '*.yaml')):
        match = re.match(r'(\d{3})-', os.path.basename(path))
        if match:
            seeds.add(match.group(1))
    return seeds


def _load(root, found):
    """Jobs by name and the project stanzas (projects and templates).

    Nodesets, secrets, semaphores and the like are zuulcilint's to check.
    """
    jobs = {}
    projects = []
    for path in sorted(glob.glob(os.path.join(root, 'zuul.d', '*.yaml'))):
        with open(path) as f:
            items = yaml.safe_load(f) or []
        for item in items:
            if 'job' in item:
                _add_job(item['job'], path, jobs, found)
            for kind in ('project', 'project-template'):
                if kind in item:
                    projects.append((kind, item[kind]))
    return jobs, projects


def _add_job(job, path, jobs, found):
    name = job.get('name')
    if not name:
        found.append('%s: a job has no name' % path)
        return
    if name in jobs:
        found.append('job %s is defined twice' % name)
    jobs[name] = job


def _pipeline_jobs(conf):
    for entry in (conf or {}).get('jobs', []) if isinstance(
            conf, dict) else []:
        yield entry if isinstance(entry, str) else list(entry)[0]


def _schema(root, jobs, projects):
    found = []
    for name, job in jobs.items():
        parent = job.get('parent')
        if parent and OWN_JOB.match(parent) and parent not in jobs:
            found.append('job %s: parent %s is defined nowhere' % (
                name, parent))
    if not any(kind == 'project' for kind, _ in projects):
        found.append('no project stanza: no job would ever run')
    for kind, project in projects:
        for pipeline, conf in project.items():
            if pipeline in PROJECT_KEYS:
                continue
            if pipeline not in PIPELINES:
                found.append('%s: unknown pipeline %s' % (kind, pipeline))
                continue
            for name in _pipeline_jobs(conf):
                if name not in jobs and OWN_JOB.match(name):
                    found.append('%s runs job %s, which is not defined' % (
                        pipeline, name))
                elif jobs.get(name, {}).get('abstract'):
                    found.append('%s runs abstract job %s' % (
                        pipeline, name))
    return found


def _devstack_first(root, jobs):
    found = []
    for name, job in jobs.items():
        if not _runs_on_devstack(name, jobs):
            continue
        for _, playbook in _playbooks(job, ('pre-run',)):
            needs = _needs_devstack(_playbook_code(root, playbook))
            if needs:
                found.append(
                    'job %s: pre-run playbook %s uses %s, which DevStack '
                    'makes only in the run phase (pre-run runs first): move '
                    'it into the run list after the DevStack playbook' % (
                        name, playbook, ', '.join(needs)))
        run = _effective_run(name, jobs)
        if job.get('abstract') or run is None:
            continue
        codes = [_playbook_code(root, playbook) for playbook in run]
        first = next((i for i, code in enumerate(codes)
                      if INSTALLS_DEVSTACK.search(code)), None)
        if first is None:
            found.append(
                'job %s: no playbook of its run list installs DevStack '
                '(orchestrate-devstack); a run list replaces '
                "devstack-tempest's, so start it with "
                'playbooks/devstack.yaml' % name)
            continue
        for playbook, code in zip(run[:first], codes):
            needs = _needs_devstack(code)
            if needs:
                found.append(
                    'job %s: run playbook %s uses %s before any playbook '
                    'of its run list installs DevStack' % (
                        name, playbook, ', '.join(needs)))
    return found


def _is_reference(value):
    """Whether a secret's value is taken from somewhere, not spelled out."""
    value = value.strip().strip('\'"').strip()
    return not value or value.startswith(('$', '{{', '%('))


def _literal_secrets_in(code):
    """(kind of literal) for each literal secret in the code's lines."""
    found = []
    for number, line in enumerate(code.splitlines(), 1):
        if line.lstrip().startswith('#'):
            continue
        for match in DEVSTACK_SECRETS.finditer(line):
            found.append((number, "DevStack's secret %r" % match.group(0)))
        password_context = [
            m.group('value') for m in
            list(PASSWORD_KEY.finditer(line)) +
            list(PASSWORD_OPTION.finditer(line)) +
            list(IDENTIFIED_BY.finditer(line))]
        if re.search(r'\b(?:mysql|mariadb)\b', line):
            password_context += [m.group('value')
                                 for m in MYSQL_P.finditer(line)]
        kinds = set()
        for value in password_context:
            if DEVSTACK_SECRETS.search(value):
                continue  # reported above
            if not _is_reference(value):
                kinds.add('a literal password')
            elif SHELL_DEFAULT.search(value):
                kinds.add('a literal default password')
        found += [(number, kind) for kind in sorted(kinds)]
    return found


def _literal_secrets(root):
    found = []
    for top in ('zuul.d', 'playbooks'):
        for folder, _, files in sorted(os.walk(os.path.join(root, top))):
            for filename in sorted(files):
                path = os.path.join(folder, filename)
                try:
                    with open(path) as f:
                        text = f.read()
                except (OSError, UnicodeDecodeError):
                    continue
                for number, kind in _literal_secrets_in(text):
                    found.append(
                        '%s:%d: %s: take secrets from DevStack\'s variables '
                        '(e.g. {{ devstack_localrc.DATABASE_PASSWORD }}) or '
                        "the service's own config, never a literal" % (
                            os.path.relpath(path, root), number, kind))
    return found


def _seeds_of(name, jobs):
    seeds = _effective_vars(name, jobs).get('conformance_seeds')
    return seeds if isinstance(seeds, list) else []


def _seed_config(jobs):
    found = []
    for name, job in jobs.items():
        if job.get('abstract'):
            continue
        config = _effective_vars(name, jobs)
        for seed in _seeds_of(name, jobs):
            for path, what in SEED_CONFIG.get(str(seed), []):
                if not _is_true(_lookup(config, path)):
                    found.append(
                        'job %s runs seed %s, so it must set %s' % (
                            name, seed, what))
    return found


#: Seeds whose tests read or enforce nova's quota usage.
QUOTA_SEEDS = ('001', '004')
NOOP_QUOTA_DRIVER = 'nova.quota.NoopQuotaDriver'
QUOTA_DRIVER = ('devstack_local_conf', 'post-config', '$NOVA_CONF', 'quota',
                'driver')


def _fake_driver_quota(jobs):
    found = []
    for name, job in jobs.items():
        if job.get('abstract'):
            continue
        config = _effective_vars(name, jobs)
        localrc = config.get('devstack_localrc') or {}
        counting = [seed for seed in _seeds_of(name, jobs)
                    if str(seed) in QUOTA_SEEDS]
        driver = _lookup(config, QUOTA_DRIVER)
        if (localrc.get('VIRT_DRIVER') == 'fake' and counting and
                driver in (None, NOOP_QUOTA_DRIVER)):
            found.append(
                "job %s runs seed %s with nova's fake virt driver, whose "
                'DevStack plugin sets [quota] driver = %s (every usage -1): '
                'set nova.quota.DbQuotaDriver (devstack_local_conf '
                'post-config $NOVA_CONF quota driver)' % (
                    name, ', '.join(str(s) for s in counting),
                    NOOP_QUOTA_DRIVER))
    return found


def _suite_by_seed(root, jobs):
    found = []
    known = _known_seeds(root)
    for name, job in jobs.items():
        if job.get('abstract') or not _runs_on_devstack(name, jobs):
            continue
        config = _effective_vars(name, jobs)
        if 'tempest_test_regex' in config:
            found.append(
                'job %s: hand-written tempest_test_regex: name the seeds in '
                'conformance_seeds; `conformance run --seed` derives the '
                'tests from guidelines/' % name)
        seeds = config.get('conformance_seeds')
        if not seeds or not isinstance(seeds, list):
            found.append('job %s: set conformance_seeds, the list of seeds '
                         'it runs (e.g. ["003"])' % name)
        else:
            for seed in seeds:
                if not isinstance(seed, str):
                    found.append(
                        "job %s: seed %r is not a seed id: quote it "
                        "(e.g. '001'; YAML reads 001 as a number)" % (
                            name, seed))
                elif seed not in known:
                    found.append(
                        'job %s: seed %s has no guidelines/%s-*.yaml' % (
                            name, seed, seed))
        run = _effective_run(name, jobs)
        if run is None:
            found.append(
                "job %s runs devstack-tempest's own run playbook (Tempest "
                'with a regex): give it a run list ending with '
                'playbooks/conformance-run.yaml' % name)
        elif not any(RUNS_SUITE.search(code) and BY_SEED.search(code)
                     for code in (_playbook_code(root, p) for p in run)):
            found.append('job %s: no playbook of its run list runs '
                         '`conformance run ... --seed`' % name)
    return found


def _effective(name, jobs, key):
    for job in _chain(name, jobs)[0]:
        if key in job:
            return job[key]
    return None


def _release_branches(jobs):
    """A job on an older series' branch (override-checkout stable/<series>
    or unmaintained/<series>) names that series in conformance_release,
    one the suite knows, so its verdicts are judged by that series'
    expectations; and a job naming one runs on its branch."""
    from conformance_tests.cloud import releases
    found = []
    for name, job in jobs.items():
        if job.get('abstract'):
            continue
        branch = _effective(name, jobs, 'override-checkout')
        match = RELEASE_BRANCH.match(str(branch or ''))
        series = _effective_vars(name, jobs).get('conformance_release')
        if match and series != match.group(1):
            found.append('job %s runs on %s, so it must set '
                         'conformance_release: "%s" (it has %r)' % (
                             name, branch, match.group(1), series))
        elif series is not None and not match:
            found.append('job %s sets conformance_release %r but runs on '
                         '%s: set override-checkout to stable/%s or '
                         'unmaintained/%s' % (name, series, branch or 'master',
                                              series, series))
        if series is not None and str(series) not in releases.OLDER:
            found.append('job %s: conformance_release %r is not an older '
                         'series the suite knows (%s)' % (
                             name, series, ', '.join(releases.OLDER)))
    return found


# The Ansible modules that run a command line, and where tasks nest.
COMMAND_MODULES = ('command', 'shell')
TASK_LISTS = ('pre_tasks', 'tasks', 'post_tasks', 'handlers')
BLOCKS = ('block', 'rescue', 'always')
VAR_REFERENCE = re.compile(r'\{\{\s*(\w+)\s*(?:\|[^}]*)?\}\}')
STESTR_LOAD = re.compile(r'\bstestr\b(?:\s+-\S+)*\s+load\b')
RUNS_CHECK = re.compile(r'\btox\b[^\n]*?(?:-e\s*|--envlist[= ])check\b')
# Changes a DevStack job's irrelevant-files must leave out.
DOC_CHANGES = ('README.md', 'doc/bench.md')
# What `tox -e check` installs with apt when it is missing (the packaged
# cloud's debootstrap, the browser checks' Chromium).
CHECK_PACKAGES = ('debootstrap', 'chromium')


def _module(task, names):
    """The argument of the task's module among names (short or FQCN)."""
    for key, value in task.items():
        short = key.rsplit('.', 1)[-1]
        if short in names and (key == short or key.startswith(
                ('ansible.builtin.', 'ansible.legacy.'))):
            return value
    return None


def _command_of(task):
    value = _module(task, COMMAND_MODULES)
    if isinstance(value, dict):
        value = value.get('cmd')
    return value if isinstance(value, str) else None


def _as_root(node, inherited):
    """Whether a play, block or task runs as root, given its parent's."""
    if 'become' in node:
        inherited = _is_true(node['become'])
    return inherited and node.get('become_user', 'root') == 'root'


def _tasks(tasks, root_user=False):
    """(task, runs as root) for the tasks, blocks' tasks included."""
    for task in tasks or []:
        if not isinstance(task, dict):
            continue
        as_root = _as_root(task, root_user)
        yield task, as_root
        for key in BLOCKS:
            yield from _tasks(task.get(key), as_root)


def _plays(root, path, seen=None):
    """The plays of a playbook and of the playbooks it imports."""
    seen = set() if seen is None else seen
    full = os.path.normpath(os.path.join(root, path))
    if full in seen or not os.path.isfile(full):
        return
    seen.add(full)
    with open(full) as f:
        plays = yaml.safe_load(f) or []
    for play in plays if isinstance(plays, list) else []:
        if not isinstance(play, dict):
            continue
        imported = play.get('import_playbook') or play.get(
            'ansible.builtin.import_playbook')
        if imported:
            yield from _plays(root, os.path.join(os.path.dirname(path),
                                                 imported), seen)
        else:
            yield play


def _play_tasks(root, path):
    """(play, task, runs as root) for every task of a playbook."""
    for play in _plays(root, path):
        play_root = _as_root(play, False)
        for key in TASK_LISTS:
            for task, as_root in _tasks(play.get(key), play_root):
                yield play, task, as_root


def _resolve(text, play):
    """The text with the play's own vars put in (a few levels deep)."""
    values = play.get('vars') or {}
    for _ in range(5):
        replaced = VAR_REFERENCE.sub(
            lambda m: str(values[m.group(1)]) if isinstance(
                values.get(m.group(1)), (str, int)) else m.group(0), text)
        if replaced == text:
            break
        text = replaced
    return text


def _chdir(task):
    for holder in (task.get('args'), _module(task, COMMAND_MODULES)):
        if isinstance(holder, dict) and holder.get('chdir'):
            return str(holder['chdir'])
    return ''


def _all_post_run(name, jobs):
    # Zuul runs the post-run playbooks of the job and of every parent.
    return [p for job in _chain(name, jobs)[0]
            for _, p in _playbooks(job, ('post-run',))]


def _suite_jobs(root, jobs):
    """The DevStack jobs that run the suite, with their run lists."""
    for name, job in sorted(jobs.items()):
        if job.get('abstract') or not _runs_on_devstack(name, jobs):
            continue
        run = _effective_run(name, jobs) or []
        if any(RUNS_SUITE.search(_playbook_code(root, p)) for p in run):
            yield name, run


def _loads_into_tempest(root, playbooks):
    for playbook in playbooks:
        for play, task, _ in _play_tasks(root, playbook):
            command = _command_of(task) or ''
            where = _resolve(_chdir(task), play).rstrip('/')
            if STESTR_LOAD.search(command) and where.endswith('/tempest'):
                return True
    return False


def _unpublished_copies(root, playbooks):
    """Destinations of test_results.subunit outside any stage dir."""
    for playbook in playbooks:
        for play, task, _ in _play_tasks(root, playbook):
            copy = _module(task, ('copy', 'fetch'))
            dest = copy.get('dest', '') if isinstance(copy, dict) else ''
            dest = _resolve(str(dest), play)
            if 'test_results.subunit' in dest and not re.search(
                    r'\b(?:stage_dir|ansible_user_dir)\b', dest):
                yield playbook, dest


def _results_published(root, jobs):
    found = []
    for name, _ in _suite_jobs(root, jobs):
        post = _all_post_run(name, jobs)
        if not _loads_into_tempest(root, post):
            found.append(
                "job %s: no post-run playbook loads the suite's subunit "
                "into Tempest's stestr repository (`stestr load` with chdir "
                '{{ devstack_base_dir }}/tempest), where fetch-subunit-output '
                'and process-stackviz look: without it there is no '
                'testr_results.html and no stackviz' % name)
        for playbook, dest in _unpublished_copies(root, post):
            found.append(
                'job %s: %s copies test_results.subunit to %s, which '
                'nothing publishes: devstack-tempest publishes '
                '{{ stage_dir }}/test_results.subunit' % (
                    name, playbook, dest))
    return found


def _report_kept(root, jobs):
    found = []
    for name, _ in _suite_jobs(root, jobs):
        code = '\n'.join(_playbook_code(root, p)
                         for p in _all_post_run(name, jobs))
        copied = _effective_vars(name, jobs).get('zuul_copy_output') or {}
        staged = 'stage_dir' in code and any(
            'stage_dir' in str(key) for key in copied)
        if 'report.html' not in code:
            found.append(
                'job %s: no post-run playbook keeps report.html, the '
                'report for people: add it to the report files the '
                'post-run keeps' % name)
        elif not staged and 'zuul.executor.log_root' not in code:
            found.append(
                'job %s: its post-run keeps the report where no log '
                'publisher looks: copy it under {{ stage_dir }} and name '
                'that directory in zuul_copy_output' % name)
    return found


def _inventory(root, jobs):
    found = []
    for name, run in _suite_jobs(root, jobs):
        for playbook in run:
            for _, task, _ in _play_tasks(root, playbook):
                command = _command_of(task) or ''
                if RUNS_SUITE.search(command) and (
                        '--inventory' not in command):
                    found.append(
                        'job %s: %s runs `conformance run` without '
                        '--inventory: add it, so a run that leaves objects '
                        'behind on DevStack fails' % (name, playbook))
    return found


def _project_names(name, jobs):
    # Zuul merges required-projects down the inheritance.
    names = set()
    for job in _chain(name, jobs)[0]:
        for project in job.get('required-projects') or []:
            if isinstance(project, dict):
                project = project.get('name', '')
            names.add(str(project).rstrip('/').rsplit('/', 1)[-1])
    return names


def _plugins_required(jobs):
    found = []
    for name, job in sorted(jobs.items()):
        plugins = (job.get('vars') or {}).get('tempest_plugins') or []
        missing = [p for p in plugins
                   if str(p) not in _project_names(name, jobs)]
        for plugin in missing:
            found.append(
                'job %s: tempest_plugins names %s but required-projects '
                'does not list it: add opendev.org/openstack/%s, or the '
                'job cannot run for another project\'s change' % (
                    name, plugin, plugin))
    return found


def _irrelevant_files(jobs):
    found = []
    for name, job in sorted(jobs.items()):
        if job.get('abstract') or not _runs_on_devstack(name, jobs):
            continue
        patterns = _effective(name, jobs, 'irrelevant-files') or []
        if not patterns:
            found.append(
                'job %s: no irrelevant-files, so a docs-only change runs '
                'this DevStack job: give it (or its base) irrelevant-files '
                r'with ^.*\.md$ and ^doc/.*$' % name)
            continue
        try:
            compiled = [re.compile(p) for p in patterns]
        except re.error as e:
            found.append('job %s: irrelevant-files holds a pattern that '
                         'is not a regular expression (%s)' % (name, e))
            continue
        for path in DOC_CHANGES:
            if not any(c.match(path) for c in compiled):
                found.append('job %s: irrelevant-files do not cover %s: a '
                             'change of it alone runs this DevStack job' % (
                                 name, path))
    return found


def _envlist(name, jobs):
    envlist = _effective_vars(name, jobs).get('tox_envlist') or ''
    return [e.strip() for e in str(envlist).split(',')]


def _runs_check(root, name, jobs):
    """(playbook or None, as root) for each way the job runs the check."""
    run = _effective_run(name, jobs)
    if run is None:
        if 'check' in _envlist(name, jobs):
            yield None, False
        return
    for playbook in run:
        for _, task, as_root in _play_tasks(root, playbook):
            if RUNS_CHECK.search(_command_of(task) or ''):
                yield playbook, as_root


def _check_as_root(root, jobs):
    found = []
    for name, job in sorted(jobs.items()):
        if job.get('abstract'):
            continue
        for playbook, as_root in _runs_check(root, name, jobs):
            if playbook is None:
                found.append(
                    "job %s runs `tox -e check` through tox's own run "
                    'playbook, as the zuul user, but the check needs root '
                    '(debootstrap, chroot, apt): give it a run playbook '
                    'that runs tox with become' % name)
            elif not as_root:
                found.append(
                    'job %s: %s runs `tox -e check` without become, but '
                    'the check needs root (debootstrap, chroot, apt): set '
                    'become: true on the task' % (name, playbook))
    return found


def _bindep(root, jobs):
    if not any(list(_runs_check(root, name, jobs)) for name in jobs):
        return []
    path = os.path.join(root, 'bindep.txt')
    if not os.path.isfile(path):
        return ['no bindep.txt: the jobs that run `tox -e check` get none '
                'of the system packages it needs (%s): add bindep.txt '
                'with a profile for them' % ', '.join(CHECK_PACKAGES)]
    with open(path) as f:
        text = _code(f.read())
    return ['bindep.txt does not name %s, which `tox -e check` needs: '
            'add it to the check\'s profile' % package
            for package in CHECK_PACKAGES
            if not re.search(r'^\s*%s\b' % re.escape(package), text, re.M)]


def _tempest_checkout(name, jobs):
    for job in _chain(name, jobs)[0]:
        for project in job.get('required-projects') or []:
            if isinstance(project, dict) and str(
                    project.get('name', '')).endswith('/tempest'):
                if project.get('override-checkout'):
                    return str(project['override-checkout'])
    return None


def _unmaintained_constraints(jobs):
    found = []
    for name, job in sorted(jobs.items()):
        branch = str(_effective(name, jobs, 'override-checkout') or '')
        if job.get('abstract') or not branch.startswith('unmaintained/'):
            continue
        localrc = _effective_vars(name, jobs).get('devstack_localrc') or {}
        if 'TEMPEST_VENV_UPPER_CONSTRAINTS' not in localrc:
            found.append(
                "job %s runs on %s: say which constraints Tempest's "
                'virtualenv installs the plugin under '
                '(devstack_localrc TEMPEST_VENV_UPPER_CONSTRAINTS, the '
                "branch's upper-constraints)" % (name, branch))
        tempest = _tempest_checkout(name, jobs)
        if tempest and str(localrc.get('TEMPEST_BRANCH')) != tempest:
            found.append(
                "job %s checks Tempest out at %s but DevStack's "
                'TEMPEST_BRANCH is %s: set devstack_localrc TEMPEST_BRANCH '
                'to %s (DevStack checks out its own pin otherwise)' % (
                    name, tempest, localrc.get('TEMPEST_BRANCH'), tempest))
    return found


def problems(root=ROOT):
    found = []
    jobs, projects = _load(root, found)
    found += _schema(root, jobs, projects)
    found += _devstack_first(root, jobs)
    found += _literal_secrets(root)
    found += _seed_config(jobs)
    found += _fake_driver_quota(jobs)
    found += _suite_by_seed(root, jobs)
    found += _release_branches(jobs)
    found += _results_published(root, jobs)
    found += _report_kept(root, jobs)
    found += _inventory(root, jobs)
    found += _plugins_required(jobs)
    found += _irrelevant_files(jobs)
    found += _check_as_root(root, jobs)
    found += _bindep(root, jobs)
    found += _unmaintained_constraints(jobs)
    return found


def main():
    found = problems()
    for line in found:
        print('check_zuul: %s' % line)
    if not found:
        print('check_zuul: zuul.d consistent')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
