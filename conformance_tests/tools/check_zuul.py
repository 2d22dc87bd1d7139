"""pep8 check: the Zuul config is consistent (a schema-level lint).

yamllint checks the YAML; this checks what Zuul would reject or silently
mis-run: unknown keys, parents that exist nowhere, abstract jobs used in
a pipeline, playbooks that are not in the tree, duplicate job names.
"""

import glob
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# Parents provided by the zuul-jobs / devstack / tempest repositories.
UPSTREAM_PARENTS = {'devstack', 'devstack-tempest', 'devstack-multinode',
                    'tempest-full-py3', 'tox', 'base'}
JOB_KEYS = {'name', 'parent', 'abstract', 'description', 'required-projects',
            'roles', 'timeout', 'vars', 'pre-run', 'run', 'post-run',
            'nodeset', 'irrelevant-files', 'files', 'host-vars',
            'group-vars', 'branches', 'voting'}
PIPELINES = {'check', 'gate', 'periodic', 'experimental', 'post'}


def _playbooks(job):
    for key in ('pre-run', 'run', 'post-run'):
        value = job.get(key) or []
        for playbook in [value] if isinstance(value, str) else value:
            yield key, playbook


def problems(root=ROOT):
    found = []
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


def main():
    found = problems()
    for line in found:
        print('check_zuul: %s' % line)
    if not found:
        print('check_zuul: zuul.d consistent')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
