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

"""One Zuul job, frozen from its sources the way Zuul freezes it.

The local runner runs a job's playbooks with Ansible on a DevStack here,
so it needs what Zuul hands Ansible: the merged variables, the pre-run,
run and post-run playbooks in Zuul's order (each with the project whose
tree holds it), the roles each playbook sees and the projects to check
out. The job is this tree's, but most of it is inherited from
DevStack's .zuul.yaml and Tempest's zuul.d/, so all three are read.

The rules are those of Zuul's job reference
(https://zuul-ci.org/docs/zuul/latest/config/job.html):

- every definition of the job and of each ancestor whose ``branches``
  match the branch applies, in the order the sources give them, so a
  variant refines like a child does;
- vars, host-vars, group-vars and extra-vars merge deeply (the later
  definition wins a key; a list is a value, replaced whole); ``!override``
  replaces the whole attribute instead;
- pre-run playbooks run root first, post-run playbooks leaf first, and
  only the nearest ``run`` runs;
- required-projects and roles accumulate; a playbook sees the roles
  listed up to the definition that adds it, its own project's included,
  the later definition's first;
- a job without ``parent`` inherits from the tenant's base job.

Zuul's tenant base job and jobs of projects not read here
(openstack-zuul-jobs) are nowhere in the sources: the chain ends at such
a parent only if the caller says it stands in for it (external_parents).
"""

import collections
import copy
import dataclasses
import os
import re

import yaml

#: Zuul's tenant base job, which no project's tree defines.
BASE = 'base'
#: The undefined parents the chain may end at: the tenant's base job and
#: devstack-base's parent, which openstack-zuul-jobs defines.
EXTERNAL_PARENTS = (BASE, 'openstack-multinode-fips')
#: Zuul's variable attributes and their ResolvedJob fields.
VARIABLES = (('vars', 'vars'), ('host-vars', 'host_vars'),
             ('group-vars', 'group_vars'), ('extra-vars', 'extra_vars'))


class JobError(Exception):
    """The job cannot be resolved; the message says what to fix."""


#: A tree of Zuul YAML: the project's canonical name, its root and its
#: config files relative to it; label names it in messages.
Source = collections.namedtuple('Source', 'project root files label',
                                defaults=(None,))
#: One ``- job:`` item, with the project and source that define it.
Definition = collections.namedtuple('Definition',
                                    'name project label body')
#: A playbook: its path is relative to its project's root.
Playbook = collections.namedtuple('Playbook', 'project path')


class _Override(object):
    """An attribute tagged ``!override``: it replaces what it inherits."""

    def __init__(self, value):
        self.value = value


class _Loader(yaml.SafeLoader):
    """safe_load, knowing Zuul's tags: ``!override`` and ``!inherit``
    control merging; any other (a secret's ``!encrypted/pkcs1-oaep``)
    loads as its plain value, since only jobs matter here."""


def _tagged(loader, suffix, node):
    if isinstance(node, yaml.MappingNode):
        value = loader.construct_mapping(node, deep=True)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_scalar(node)
    return _Override(value) if suffix == 'override' else value


_Loader.add_multi_constructor('!', _tagged)


class Registry(object):
    """Every job definition of the sources, by name, in source order."""

    def __init__(self, sources):
        self.sources = tuple(sources)
        self.definitions = collections.OrderedDict()

    def where(self):
        labels = [_label(source) for source in self.sources]
        if len(labels) < 2:
            return ''.join(labels)
        return '%s or %s' % (', '.join(labels[:-1]), labels[-1])


@dataclasses.dataclass
class ResolvedJob(object):
    """The frozen job. ``chain`` runs from the root-most ancestor found
    to the job; ``external`` names the undefined parent it ends at (the
    caller's stand-in), ``base_missing`` whether that is the tenant's
    base job. ``playbook_roles`` gives each playbook its role projects,
    in Zuul's precedence."""
    name: str
    branch: str
    chain: list = dataclasses.field(default_factory=list)
    external: tuple = ()
    base_missing: bool = False
    vars: dict = dataclasses.field(default_factory=dict)
    host_vars: dict = dataclasses.field(default_factory=dict)
    group_vars: dict = dataclasses.field(default_factory=dict)
    extra_vars: dict = dataclasses.field(default_factory=dict)
    required_projects: list = dataclasses.field(default_factory=list)
    override_checkouts: dict = dataclasses.field(default_factory=dict)
    unqualified_projects: list = dataclasses.field(default_factory=list)
    pre_run: list = dataclasses.field(default_factory=list)
    run: list = dataclasses.field(default_factory=list)
    post_run: list = dataclasses.field(default_factory=list)
    roles: list = dataclasses.field(default_factory=list)
    playbook_roles: dict = dataclasses.field(default_factory=dict)
    timeout: int = None
    nodeset: object = None
    description: str = None
    override_checkout: str = None


def _label(source):
    return source.label or '%s (%s)' % (source.project,
                                        ', '.join(source.files))


def load(sources):
    """A Registry of the sources' jobs; other items are Zuul's alone."""
    registry = Registry(sources)
    for source in registry.sources:
        for relative in source.files:
            path = os.path.join(source.root, relative)
            try:
                with open(path) as f:
                    items = yaml.load(f, Loader=_Loader) or []
            except OSError as e:
                raise JobError('cannot read %s of %s: %s' % (
                    relative, source.project, e.strerror))
            if not isinstance(items, list):
                raise JobError('%s is not a list of Zuul items' % path)
            for item in items:
                body = item.get('job') if isinstance(item, dict) else None
                if not isinstance(body, dict):
                    continue
                if not body.get('name'):
                    raise JobError('%s: a job has no name' % path)
                registry.definitions.setdefault(body['name'], []).append(
                    Definition(body['name'], source.project,
                               _label(source), body))
    return registry


def _abstract(definitions):
    return any(d.body.get('abstract') for d in definitions)


def job_names(registry, own_project):
    """The project's own jobs that can run: the runner's choices."""
    return sorted(name for name, defs in registry.definitions.items()
                  if any(d.project == own_project for d in defs)
                  and not _abstract(defs))


def _branch_matches(matcher, branch):
    negate = False
    if isinstance(matcher, dict):
        negate = bool(matcher.get('negate'))
        matcher = matcher.get('regex', '')
    try:
        found = branch == matcher or re.match(matcher, branch) is not None
    except re.error as e:
        raise JobError('branches %r is not a regular expression: %s' % (
            matcher, e))
    return found != negate


def _applies(definition, branch):
    matchers = definition.body.get('branches')
    if matchers is None:
        return True
    if not isinstance(matchers, list):
        matchers = [matchers]
    return any(_branch_matches(m, branch) for m in matchers)


def _variants(registry, name, branch):
    defined = registry.definitions[name]
    matching = [d for d in defined if _applies(d, branch)]
    if not matching:
        raise JobError('job %s has no variant for branch %s (its branches: '
                       '%s): pick a branch one of them matches' % (
                           name, branch, ', '.join(
                               str(d.body.get('branches')) for d in defined)))
    return matching


def _parent(name, variants):
    # Zuul takes the parent from the variants; a job whose variants name
    # different parents would need Zuul's own freezing, so it is refused.
    named = {d.body['parent'] for d in variants if 'parent' in d.body}
    if len(named) > 1:
        raise JobError('job %s: its variants name different parents (%s): '
                       'give them one' % (name, ', '.join(
                           sorted(str(p) for p in named))))
    return named.pop() if named else BASE


def _walk(registry, name, branch, external_parents):
    """[(name, matching definitions)] root first, and the undefined
    parent the chain ends at (None for a base job: ``parent: null``)."""
    levels = []
    while True:
        if name in [n for n, _ in levels]:
            cycle = [n for n, _ in levels] + [name]
            raise JobError('job %s: its parents form a cycle (%s, each '
                           'job followed by its parent): give one of them '
                           'another parent' % (levels[0][0],
                                               ' -> '.join(cycle)))
        variants = _variants(registry, name, branch)
        levels.append((name, variants))
        parent = _parent(name, variants)
        if parent is None:
            return list(reversed(levels)), None
        if parent not in registry.definitions:
            if parent == BASE or parent in external_parents:
                return list(reversed(levels)), parent
            raise JobError(
                "job %s's parent %s is defined nowhere: not in %s; define "
                'it, or let the runner stand in for it (external_parents)'
                % (name, parent, registry.where()))
        name = parent


def _merge(base, over):
    """Zuul's deep merge: mappings merge, any other value replaces."""
    if isinstance(over, _Override):
        return over.value
    merged = dict(base)
    for key, value in (over or {}).items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _playbooks(value, project):
    if isinstance(value, _Override):
        value = value.value
    items = [value] if isinstance(value, (str, dict)) else value or []
    return [Playbook(project, item['name'] if isinstance(item, dict)
                     else item) for item in items]


def _unique(items):
    return list(collections.OrderedDict.fromkeys(items))


def _qualified(name):
    return '.' in name.split('/')[0]


def _require(job, value):
    if isinstance(value, _Override):
        job.required_projects, job.override_checkouts = [], {}
        value = value.value
    for entry in value or []:
        checkout = None
        if isinstance(entry, dict):
            checkout = (entry.get('override-checkout') or
                        entry.get('override-branch'))
            entry = entry.get('name', '')
        name = str(entry).rstrip('/')
        if name not in job.required_projects:
            job.required_projects.append(name)
        if checkout:
            job.override_checkouts[name] = str(checkout)


def _qualify(job):
    # A name without a host is Zuul's to resolve; it is the canonical
    # one when that is listed too, and is kept as given otherwise.
    full = {n.split('/', 1)[1]: n for n in job.required_projects
            if _qualified(n) and '/' in n}
    names = []
    for name in job.required_projects:
        canonical = name if _qualified(name) else full.get(name, name)
        if name in job.override_checkouts and canonical != name:
            job.override_checkouts.setdefault(
                canonical, job.override_checkouts.pop(name))
        names.append(canonical)
    job.required_projects = _unique(names)
    job.unqualified_projects = [n for n in job.required_projects
                                if not _qualified(n)]


def _apply(job, definition, roles_so_far):
    """Fold one definition onto the job; returns the roles seen so far."""
    body = definition.body
    for key, field in VARIABLES:
        if key in body:
            setattr(job, field, _merge(getattr(job, field), body[key]))
    _require(job, body.get('required-projects'))
    listed = [r['zuul'] for r in body.get('roles') or []
              if isinstance(r, dict) and r.get('zuul')]
    job.roles = _unique(job.roles + listed)
    roles_so_far = _unique(listed + [definition.project] + roles_so_far)
    pre = _playbooks(body.get('pre-run'), definition.project)
    post = _playbooks(body.get('post-run'), definition.project)
    run = _playbooks(body.get('run'), definition.project)
    job.pre_run += pre
    job.post_run[:0] = post
    if run:
        job.run = run
    for playbook in pre + run + post:
        job.playbook_roles[playbook] = tuple(roles_so_far)
    for key in ('timeout', 'nodeset', 'description', 'override-checkout'):
        if body.get(key) is not None:
            setattr(job, key.replace('-', '_'), body[key])
    return roles_so_far


def resolve(registry, name, branch, external_parents=EXTERNAL_PARENTS,
            own_project=None):
    """The job ``name`` frozen for ``branch``; own_project is the
    change's project, which Zuul always checks out."""
    if name not in registry.definitions:
        choices = (job_names(registry, own_project) if own_project else
                   sorted(n for n, defs in registry.definitions.items()
                          if not _abstract(defs)))
        raise JobError('job %s is not defined in %s: pick one of %s' % (
            name, registry.where(), ', '.join(choices)))
    levels, ended_at = _walk(registry, name, branch, external_parents)
    if _abstract(levels[-1][1]):
        children = sorted(
            n for n, defs in registry.definitions.items()
            if any(d.body.get('parent') == name for d in defs)
            and not _abstract(defs))
        raise JobError('job %s is abstract: run one of its children: %s' % (
            name, ', '.join(children) or 'none is defined'))
    job = ResolvedJob(name, branch)
    job.external = (ended_at,) if ended_at else ()
    job.base_missing = ended_at == BASE
    roles_so_far = []
    for level, definitions in levels:
        job.chain.append(level)
        for definition in definitions:
            roles_so_far = _apply(job, definition, roles_so_far)
    if own_project and own_project not in job.required_projects:
        job.required_projects.append(own_project)
    _qualify(job)
    # Callers may change what they get; the registry's YAML stays as read.
    for field in ('vars', 'host_vars', 'group_vars', 'extra_vars',
                  'nodeset'):
        setattr(job, field, copy.deepcopy(getattr(job, field)))
    return job
