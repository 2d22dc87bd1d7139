"""pep8 check: the Zuul config is consistent and its DevStack jobs can pass.

Schema level (what Zuul would reject or silently mis-run): unknown keys,
parents that exist nowhere, abstract jobs used in a pipeline, playbooks
that are not in the tree, duplicate job names.

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
- Scope by seed: every job that runs the suite names its seeds in
  conformance_seeds (seeds that exist in guidelines/) and runs
  `conformance run ... --seed`; no hand-written tempest_test_regex.
"""

import glob
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# Parents provided by the zuul-jobs / devstack / tempest repositories.
UPSTREAM_PARENTS = {'devstack', 'devstack-tempest', 'devstack-multinode',
                    'tempest-full-py3', 'tox', 'base'}
# Of those, the ones whose jobs install DevStack in the run phase.
DEVSTACK_PARENTS = {'devstack', 'devstack-tempest', 'devstack-multinode',
                    'tempest-full-py3'}
JOB_KEYS = {'name', 'parent', 'abstract', 'description', 'required-projects',
            'roles', 'timeout', 'vars', 'pre-run', 'run', 'post-run',
            'nodeset', 'irrelevant-files', 'files', 'host-vars',
            'group-vars', 'branches', 'voting', 'attempts', 'post-timeout',
            'semaphores', 'dependencies', 'final', 'protected',
            'override-checkout'}
PIPELINES = {'check', 'gate', 'periodic', 'experimental', 'post'}

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
    jobs = {}
    projects = []
    for path in sorted(glob.glob(os.path.join(root, 'zuul.d', '*.yaml'))):
        with open(path) as f:
            for item in yaml.safe_load(f) or []:
                if 'job' in item:
                    job = item['job']
                    name = job.get('name')
                    if not name:
                        found.append('%s: a job has no name' % path)
                        continue
                    if name in jobs:
                        found.append('job %s is defined twice' % name)
                    jobs[name] = job
                    for key in sorted(set(job) - JOB_KEYS):
                        found.append('job %s: unknown key %s' % (name, key))
                elif 'project' in item:
                    projects.append(item['project'])
                else:
                    found.append('%s: unknown top-level item %s' % (
                        path, sorted(item)))
    return jobs, projects


def _schema(root, jobs, projects):
    found = []
    for name, job in jobs.items():
        parent = job.get('parent')
        if parent and parent not in jobs and parent not in UPSTREAM_PARENTS:
            found.append('job %s: parent %s is defined nowhere' % (
                name, parent))
        for key, playbook in _playbooks(job):
            if not os.path.exists(os.path.join(root, playbook)):
                found.append('job %s: %s playbook %s is not in the tree' % (
                    name, key, playbook))
    if not projects:
        found.append('no project stanza: no job would ever run')
    for project in projects:
        for pipeline, conf in project.items():
            if pipeline not in PIPELINES:
                found.append('project: unknown pipeline %s' % pipeline)
                continue
            for entry in (conf or {}).get('jobs', []):
                name = entry if isinstance(entry, str) else list(entry)[0]
                if name not in jobs:
                    found.append('%s runs job %s, which is not defined' % (
                        pipeline, name))
                elif jobs[name].get('abstract'):
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


def problems(root=ROOT):
    found = []
    jobs, projects = _load(root, found)
    found += _schema(root, jobs, projects)
    found += _devstack_first(root, jobs)
    found += _literal_secrets(root)
    found += _seed_config(jobs)
    found += _suite_by_seed(root, jobs)
    found += _release_branches(jobs)
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
