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

"""devstack/zuul_jobs: a job frozen from its sources as Zuul freezes it.

The synthetic sources hold one rule each (deep merge, branch variants,
playbook order, the refusals); the real ones are this tree's zuul.d/,
DevStack master's .zuul.yaml (from the tarball in ../shared/upstream/)
and the zuul.d/ of the Tempest release the newest series pins (its sdist
from PyPI, cached as `conformance devstack` caches it), through which
conformance-placement gets most of what it runs.
"""

import glob
import os
import tarfile
import textwrap

import fixtures
import testtools

from conformance_tests.devstack import container
from conformance_tests.devstack import deploy
from conformance_tests.devstack import sources
from conformance_tests.devstack import zuul_jobs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
OWN = 'opendev.org/openstack/openstack-conformance-tests'
DEVSTACK = 'opendev.org/openstack/devstack'
TEMPEST = 'opendev.org/openstack/tempest'


class SyntheticTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path

    def _source(self, project, text, name='zuul.yaml', label=None):
        folder = os.path.join(self.root, project.replace('/', '_'))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), 'w') as f:
            f.write(textwrap.dedent(text))
        return zuul_jobs.Source(project, folder, [name], label)

    def _registry(self, upstream, own=None):
        sources = [self._source('example.org/up', upstream, label='up')]
        if own is not None:
            sources.append(self._source(OWN, own, label='ours'))
        return zuul_jobs.load(sources)

    def test_vars_merge_deeply_child_wins_lists_replaced(self):
        registry = self._registry("""\
            - job:
                name: parent
                vars:
                  services: {a: true, b: true}
                  plugins: [one, two]
                  conf: {x: {y: 1, z: 2}}
                host-vars:
                  controller: {h: 1, k: 1}
                group-vars:
                  subnode: {g: [1]}
                extra-vars:
                  e: 1
            - job:
                name: child
                parent: parent
                vars:
                  services: {b: false, c: true}
                  plugins: [three]
                  conf: {x: {z: 3}}
                host-vars:
                  controller: {k: 2}
                group-vars:
                  subnode: {g: [2]}
            """)
        job = zuul_jobs.resolve(registry, 'child', 'master')
        self.assertEqual({'a': True, 'b': False, 'c': True},
                         job.vars['services'])
        self.assertEqual(['three'], job.vars['plugins'])
        self.assertEqual({'x': {'y': 1, 'z': 3}}, job.vars['conf'])
        self.assertEqual({'controller': {'h': 1, 'k': 2}}, job.host_vars)
        self.assertEqual({'subnode': {'g': [2]}}, job.group_vars)
        self.assertEqual({'e': 1}, job.extra_vars)
        # What the caller gets is its own: the registry stays as read.
        job.vars['conf']['x']['y'] = 9
        again = zuul_jobs.resolve(registry, 'child', 'master')
        self.assertEqual(1, again.vars['conf']['x']['y'])

    def test_override_tag_replaces_instead_of_merging(self):
        registry = self._registry("""\
            - job:
                name: parent
                vars: {a: 1, b: 2}
                required-projects: [example.org/one]
            - job:
                name: child
                parent: parent
                vars: !override {c: 3}
                required-projects: !override [example.org/two]
            - secret:
                name: s
                data:
                  key: !encrypted/pkcs1-oaep [abc]
            """)
        job = zuul_jobs.resolve(registry, 'child', 'master')
        self.assertEqual({'c': 3}, job.vars)
        self.assertEqual(['example.org/two'], job.required_projects)

    def test_variant_for_stable_applies_only_on_stable(self):
        registry = self._registry("""\
            - job:
                name: job
                vars: {release: master, kept: '1'}
            - job:
                name: job
                branches: stable/.*
                vars: {release: stable}
                run: stable.yaml
            - job:
                name: job
                branches: [^unmaintained/.*, ^stable/2025\\.1$]
                vars: {last: '2025.1'}
            """)
        stable = zuul_jobs.resolve(registry, 'job', 'stable/2025.1')
        self.assertEqual({'release': 'stable', 'kept': '1',
                          'last': '2025.1'}, stable.vars)
        self.assertEqual([('example.org/up', 'stable.yaml')], stable.run)
        master = zuul_jobs.resolve(registry, 'job', 'master')
        self.assertEqual({'release': 'master', 'kept': '1'}, master.vars)
        self.assertEqual([], master.run)
        self.assertEqual(['job'], master.chain)

    def test_negated_branch_matcher_and_no_matching_variant(self):
        registry = self._registry("""\
            - job:
                name: modern
                branches:
                  regex: ^stable/(victoria|wallaby)$
                  negate: true
            - job:
                name: old
                branches: [^stable/victoria]
            """)
        zuul_jobs.resolve(registry, 'modern', 'master')
        self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                          registry, 'modern', 'stable/wallaby')
        e = self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                              registry, 'old', 'master')
        self.assertIn('job old has no variant for branch master', str(e))

    def test_parent_variants_follow_the_branch(self):
        registry = self._registry("""\
            - job:
                name: parent
                vars: {where: master}
            - job:
                name: parent
                branches: ^stable/
                vars: {where: stable}
            - job:
                name: child
                parent: parent
            """)
        self.assertEqual('stable', zuul_jobs.resolve(
            registry, 'child', 'stable/2025.1').vars['where'])
        self.assertEqual('master', zuul_jobs.resolve(
            registry, 'child', 'master').vars['where'])

    def test_playbooks_run_replaced_pre_root_first_post_leaf_first(self):
        registry = self._registry("""\
            - job:
                name: grandparent
                pre-run: gp-pre.yaml
                run: gp-run.yaml
                post-run: [gp-post1.yaml, gp-post2.yaml]
                roles:
                  - zuul: example.org/roles
            - job:
                name: parent
                parent: grandparent
                pre-run:
                  - name: p-pre.yaml
                    semaphores: one
                run: p-run.yaml
            """, own="""\
            - job:
                name: child
                parent: parent
                pre-run: c-pre.yaml
                run: [c-run1.yaml, {name: c-run2.yaml}]
                post-run: c-post.yaml
                roles:
                  - zuul: example.org/more
            """)
        job = zuul_jobs.resolve(registry, 'child', 'master')
        up = 'example.org/up'
        self.assertEqual(['grandparent', 'parent', 'child'], job.chain)
        self.assertEqual([(up, 'gp-pre.yaml'), (up, 'p-pre.yaml'),
                          (OWN, 'c-pre.yaml')], job.pre_run)
        self.assertEqual([(OWN, 'c-run1.yaml'), (OWN, 'c-run2.yaml')],
                         job.run)
        self.assertEqual([(OWN, 'c-post.yaml'), (up, 'gp-post1.yaml'),
                          (up, 'gp-post2.yaml')], job.post_run)
        self.assertEqual(['example.org/roles', 'example.org/more'],
                         job.roles)
        # A playbook sees the roles up to the job that adds it, that
        # job's first: the parents' do not see the child's roles.
        self.assertEqual(('example.org/roles', up),
                         job.playbook_roles[(up, 'gp-pre.yaml')])
        self.assertEqual(('example.org/more', OWN, up, 'example.org/roles'),
                         job.playbook_roles[(OWN, 'c-post.yaml')])
        # Inherited from the nearest that sets it.
        parentless = zuul_jobs.resolve(registry, 'parent', 'master')
        self.assertEqual([(up, 'p-run.yaml')], parentless.run)

    def test_required_projects_union_checkouts_and_own_project(self):
        registry = self._registry("""\
            - job:
                name: parent
                required-projects:
                  - opendev.org/openstack/requirements
                  - novnc/novnc
                  - openstack/nova
            - job:
                name: child
                parent: parent
                timeout: 60
                nodeset: small
                description: the child
                required-projects:
                  - opendev.org/openstack/requirements
                  - name: opendev.org/openstack/nova
                    override-checkout: stable/2025.1
            """)
        job = zuul_jobs.resolve(registry, 'child', 'master',
                                own_project=OWN)
        self.assertEqual(['opendev.org/openstack/requirements',
                          'novnc/novnc', 'opendev.org/openstack/nova', OWN],
                         job.required_projects)
        self.assertEqual(['novnc/novnc'], job.unqualified_projects)
        self.assertEqual({'opendev.org/openstack/nova': 'stable/2025.1'},
                         job.override_checkouts)
        self.assertEqual((60, 'small', 'the child'),
                         (job.timeout, job.nodeset, job.description))

    def test_abstract_leaf_refused_with_its_children(self):
        registry = self._registry("""\
            - job:
                name: conformance-base
                abstract: true
            - job:
                name: conformance-a
                parent: conformance-base
            - job:
                name: conformance-b
                parent: conformance-base
            """)
        e = self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                              registry, 'conformance-base', 'master')
        self.assertEqual('job conformance-base is abstract: run one of its '
                         'children: conformance-a, conformance-b', str(e))
        self.assertEqual(['conformance-base', 'conformance-a'],
                         zuul_jobs.resolve(registry, 'conformance-a',
                                           'master').chain)

    def test_unknown_job_refused_with_the_choices(self):
        registry = self._registry("""\
            - job: {name: upstream}
            - project: {check: {jobs: [upstream]}}
            - nodeset: {name: n, nodes: []}
            """, own="""\
            - job: {name: conformance-b, parent: upstream}
            - job: {name: conformance-a, parent: upstream}
            - job: {name: conformance-base, abstract: true}
            """)
        self.assertEqual(['conformance-a', 'conformance-b'],
                         zuul_jobs.job_names(registry, OWN))
        e = self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                              registry, 'conformance-foo', 'master',
                              own_project=OWN)
        self.assertEqual('job conformance-foo is not defined in up or ours: '
                         'pick one of conformance-a, conformance-b', str(e))

    def test_unknown_parent_refused(self):
        registry = self._registry("""\
            - job: {name: child, parent: openstack-tox}
            """)
        e = self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                              registry, 'child', 'master')
        self.assertIn("job child's parent openstack-tox is defined nowhere",
                      str(e))

    def test_cycle_refused(self):
        registry = self._registry("""\
            - job: {name: leaf, parent: a}
            - job: {name: a, parent: b}
            - job: {name: b, parent: a}
            """)
        e = self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                              registry, 'leaf', 'master')
        self.assertIn('cycle (leaf -> a -> b -> a', str(e))

    def test_external_parent_and_missing_base_recorded(self):
        registry = self._registry("""\
            - job: {name: top, parent: openstack-multinode-fips}
            - job: {name: child, parent: top}
            - job: {name: orphan}
            - job: {name: root, parent: null}
            """)
        job = zuul_jobs.resolve(registry, 'child', 'master')
        self.assertEqual(['top', 'child'], job.chain)
        self.assertEqual(('openstack-multinode-fips',), job.external)
        self.assertFalse(job.base_missing)
        orphan = zuul_jobs.resolve(registry, 'orphan', 'master',
                                   external_parents=())
        self.assertEqual((('base',), True),
                         (orphan.external, orphan.base_missing))
        root = zuul_jobs.resolve(registry, 'root', 'master')
        self.assertEqual(((), False), (root.external, root.base_missing))
        self.assertRaises(zuul_jobs.JobError, zuul_jobs.resolve,
                          registry, 'child', 'master', external_parents=())

    def test_missing_file_refused(self):
        source = zuul_jobs.Source(OWN, self.root, ['zuul.d/none.yaml'])
        e = self.assertRaises(zuul_jobs.JobError, zuul_jobs.load, [source])
        self.assertIn('cannot read zuul.d/none.yaml', str(e))


def devstack_tarball(test, branch):
    """DevStack's tarball of ``branch`` where `conformance devstack`
    looks for it (../shared/upstream beside this checkout or beside the
    repository it was cloned from); ``test`` skips without it."""
    tarball = os.path.join(deploy.default_devstack_src(ROOT),
                           'devstack-%s.tar.gz' % branch.replace('/', '-'))
    if not os.path.isfile(tarball):
        test.skipTest('no DevStack tarball at %s' % tarball)
    return tarball


def real_registry(test, branch):
    """Our zuul.d/, DevStack's .zuul.yaml of ``branch`` (its tarball in
    ../shared/upstream; ``test`` skips without it) and the zuul.d/ of
    that series' Tempest (devstack-tempest is Tempest's job), as the
    jobs of ``branch`` are frozen."""
    tarball = devstack_tarball(test, branch)
    devstack = test.useFixture(fixtures.TempDir()).path
    with tarfile.open(tarball) as tar:
        text = tar.extractfile('devstack/.zuul.yaml').read()
    with open(os.path.join(devstack, '.zuul.yaml'), 'wb') as f:
        f.write(text)
    tempest_tree = os.path.join(devstack, 'tempest')
    version = sources.services_versions(sources.series_of(branch))[
        'tempest']
    sources.extract(sources.sdist('tempest', version,
                                  container.sdist_cache()), tempest_tree)

    def files(root):
        return sorted(os.path.relpath(p, root) for p in
                      glob.glob(os.path.join(root, 'zuul.d', '*.yaml')))
    return zuul_jobs.load([
        zuul_jobs.Source(OWN, ROOT, files(ROOT), 'zuul.d/'),
        zuul_jobs.Source(DEVSTACK, devstack, ['.zuul.yaml'],
                         "DevStack's .zuul.yaml"),
        zuul_jobs.Source(TEMPEST, tempest_tree, files(tempest_tree),
                         "Tempest's zuul.d/")])


class RealTreesTest(testtools.TestCase):
    """conformance-placement through DevStack master and Tempest."""

    def setUp(self):
        super().setUp()
        self.registry = real_registry(self, 'master')

    def test_conformance_placement_on_master(self):
        job = zuul_jobs.resolve(self.registry, 'conformance-placement',
                                'master', own_project=OWN)
        self.assertEqual(['devstack-base', 'devstack-minimal', 'devstack',
                          'devstack-tempest', 'conformance-base',
                          'conformance-placement'], job.chain)
        self.assertEqual(('openstack-multinode-fips',), job.external)
        services = job.vars['devstack_services']
        self.assertEqual((False, True, False, True, True), (
            services['base'], services['placement-api'], services['n-api'],
            services['tls-proxy'], services['tempest']))
        self.assertIn('ADMIN_PASSWORD', job.vars['devstack_localrc'])
        self.assertEqual(['openstack-conformance-tests'],
                         job.vars['tempest_plugins'])
        tempest_conf = job.vars['devstack_local_conf']['test-config'][
            '$TEMPEST_CONFIG']
        self.assertIn('service-clients', tempest_conf)
        self.assertIn('placement', tempest_conf)
        self.assertEqual([(OWN, 'playbooks/devstack.yaml'),
                          (OWN, 'playbooks/conformance-run.yaml')], job.run)
        self.assertIn((DEVSTACK, 'playbooks/pre.yaml'), job.pre_run)
        post = job.post_run
        self.assertEqual((OWN, 'playbooks/conformance-report.yaml'), post[0])
        self.assertLess(post.index((TEMPEST, 'playbooks/post-tempest.yaml')),
                        post.index((DEVSTACK, 'playbooks/post.yaml')))
        for name in ('requirements', 'devstack', 'tempest', 'placement',
                     'keystone', 'openstack-conformance-tests'):
            self.assertIn('opendev.org/openstack/' + name,
                          job.required_projects)

    def test_the_placement_job_runs_keystone_and_placement_only(self):
        # What the devstack job enables and this job does not need (OVN,
        # OVS, etcd, rabbit) fails in a node without their kernel parts
        # and costs every gate node minutes: the job turns each off.
        job = zuul_jobs.resolve(self.registry, 'conformance-placement',
                                'master', own_project=OWN)
        enabled = {name for name, on in
                   job.vars['devstack_services'].items() if on}
        self.assertEqual(
            {'placement-api', 'keystone', 'key', 'mysql', 'tempest',
             'tls-proxy', 'file_tracker', 'memory_tracker',
             'openstack-cli-server'}, enabled)

    def test_no_job_runs_a_service_no_seed_uses(self):
        # Cinder, its etcd, swift and noVNC: the embedded cloud proves
        # every capability without them, and a gate node (or this
        # machine's) spends minutes on them or cannot fetch them (etcd
        # from GitHub).
        unused = {'c-api', 'c-bak', 'c-sch', 'c-vol', 'etcd3', 's-account',
                  's-container', 's-object', 's-proxy', 'n-novnc'}
        for name in zuul_jobs.job_names(self.registry, OWN):
            if name == 'conformance-self-check':
                continue
            job = zuul_jobs.resolve(self.registry, name, 'master',
                                    own_project=OWN)
            enabled = {service for service, on in
                       job.vars['devstack_services'].items() if on}
            self.assertEqual(set(), enabled & unused, name)

    def test_every_job_installs_tempest_under_its_requirements(self):
        # DevStack's default fetches releases.openstack.org's copy, not
        # the requirements checkout the job has.
        for name in zuul_jobs.job_names(self.registry, OWN):
            if name == 'conformance-self-check':
                continue
            job = zuul_jobs.resolve(self.registry, name, 'master',
                                    own_project=OWN)
            self.assertEqual(
                '{{ devstack_base_dir }}/requirements/upper-constraints.txt',
                job.vars['devstack_localrc'].get(
                    'TEMPEST_VENV_UPPER_CONSTRAINTS'), name)

    def test_every_own_job_but_the_self_check_resolves(self):
        # The self-check's parent is zuul-jobs' tox, which is not read.
        names = zuul_jobs.job_names(self.registry, OWN)
        self.assertIn('conformance-self-check', names)
        for name in names:
            if name != 'conformance-self-check':
                zuul_jobs.resolve(self.registry, name, 'master',
                                  own_project=OWN)


class StableBranchesTest(testtools.TestCase):
    """Each job through the DevStack of the branch it runs on: a service
    may be named otherwise there (q-ovn-metadata-agent before 2026.1)."""

    NEUTRON = ('q-svc', 'q-agt', 'q-dhcp', 'q-l3', 'q-meta', 'q-metering',
               'q-ovn-agent', 'q-ovn-metadata-agent', 'ovn-controller',
               'ovn-northd', 'ovs-vswitchd', 'ovsdb-server')

    def test_the_placement_jobs_enable_no_neutron_on_their_branch(self):
        for name in ('conformance-placement-2025-1',
                     'conformance-placement-2024-1'):
            branch = deploy.job_branch(name)
            job = zuul_jobs.resolve(
                real_registry(self, branch), name, branch, own_project=OWN,
                external_parents=deploy.EXTERNAL_PARENTS)
            self.assertIn('devstack', job.chain)
            services = job.vars['devstack_services']
            self.assertTrue(services.get('placement-api'), name)
            self.assertEqual([], [s for s in self.NEUTRON
                                  if services.get(s)], name)

    def test_a_job_without_neutron_makes_the_post_config_directory(self):
        # DevStack before 2026.1 dies in merge_config_group on a
        # post-config file whose directory is missing; the devstack job
        # post-configs $NEUTRON_CONF, so a job that runs no neutron on
        # such a branch names /etc/neutron in conformance_config_dirs
        # (playbooks/devstack.yaml makes it).
        checked = []
        for branch in ('stable/2025.1', 'unmaintained/2024.1'):
            self.assertFalse(_makes_config_dirs(self, branch), branch)
            registry = real_registry(self, branch)
            for name in zuul_jobs.job_names(registry, OWN):
                if (name == 'conformance-self-check'
                        or deploy.job_branch(name) != branch):
                    continue
                job = zuul_jobs.resolve(
                    registry, name, branch, own_project=OWN,
                    external_parents=deploy.EXTERNAL_PARENTS)
                services = job.vars['devstack_services']
                post = job.vars['devstack_local_conf'].get('post-config', {})
                if ('$NEUTRON_CONF' in post
                        and not any(services.get(s) for s in self.NEUTRON)):
                    checked.append(name)
                    self.assertIn('/etc/neutron', job.vars.get(
                        'conformance_config_dirs', []), name)
        self.assertEqual(['conformance-placement-2025-1',
                          'conformance-placement-2024-1'], checked)
        # The branch that makes the directory itself needs none.
        self.assertTrue(_makes_config_dirs(self, 'stable/2026.1'))


def _makes_config_dirs(test, branch):
    """Whether ``branch``'s DevStack makes a post-config file's missing
    directory (its inc/meta-config), read from its tarball."""
    with tarfile.open(devstack_tarball(test, branch)) as tar:
        text = tar.extractfile('devstack/inc/meta-config').read().decode()
    group = text[text.index('function merge_config_group'):]
    return 'mkdir -p $dir' in group[:group.index('\n}')]
