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

"""tools/check_zuul: the Zuul lint, and the rules its DevStack jobs broke.

The fixtures of the rule tests are the shapes the tree had when its
DevStack jobs could not go green (setup needing DevStack in pre-run,
`secretmysql` spelled out, seed 001 on a legacy-quota nova, tests picked
by a hand-written regex) or were wired unlike the ecosystem's jobs (no
.stestr for fetch-subunit-output, report.html dropped, no --inventory,
the plugin missing from required-projects, no irrelevant-files, `tox -e
check` as the zuul user, no bindep.txt): each test fails on a check_zuul
without that rule.
"""

import os
import textwrap

import fixtures
import testtools
import yaml

from conformance_tests.tools import check_zuul

DEVSTACK_PLAYBOOK = """\
- hosts: all
  roles:
    - orchestrate-devstack
"""
SUITE_PLAYBOOK = """\
- hosts: tempest
  tasks:
    - command: >-
        /opt/stack/tempest/.tox/tempest/bin/conformance run
        --tempest-conf /opt/stack/tempest/etc/tempest.conf
        --inventory
        {% for seed in conformance_seeds %}--seed {{ seed }} {% endfor %}
"""
# What the report playbook keeps, and where the ecosystem looks.
REPORT_PLAYBOOK = """\
- hosts: tempest
  vars:
    tempest_dir: "{{ devstack_base_dir }}/tempest"
  tasks:
    - command: stestr load --force-init /opt/stack/results/results.subunit
      args:
        chdir: "{{ tempest_dir }}"
    - copy:
        src: /opt/stack/results/report.html
        dest: "{{ stage_dir }}/conformance/report.html"
        remote_src: true
"""
# The report playbook as it was: the stream copied to /opt/stack, the
# report fetched without its page for people.
OLD_REPORT_PLAYBOOK = """\
- hosts: tempest
  vars:
    devstack_dir: "{{ devstack_base_dir | default('/opt/stack') }}"
  tasks:
    - copy:
        src: "{{ devstack_dir }}/results/results.subunit"
        dest: "{{ devstack_dir }}/test_results.subunit"
        remote_src: true
    - fetch:
        src: "{{ devstack_dir }}/results/report.md"
        dest: "{{ zuul.executor.log_root }}/conformance/"
"""
DOCS = ['^.*\\.md$', '^doc/.*$']
STAGED = {'{{ stage_dir }}/conformance': 'logs'}
BINDEP = 'debootstrap [self-check]\nchromium [self-check platform:debian]\n'
# The old conformance-cells-pre.yaml, as far as the rules care.
CELLS_SETUP = """\
- hosts: controller
  tasks:
    - name: Give the cell its own database account and point nova at it
      shell: |
        source /opt/stack/devstack/openrc admin admin
        mysql -uroot -p"$MYSQL_ROOT_PASSWORD" -e "CREATE USER ..."
        nova-manage cell_v2 update_cell --cell_uuid "$uuid"
        sudo systemctl restart 'devstack@n-*'
      environment:
        MYSQL_ROOT_PASSWORD: secretmysql
"""
QUOTA_CONFIG = {
    'post-config': {'$NOVA_CONF': {
        'quota': {'count_usage_from_placement': True}}},
    'test-config': {'$TEMPEST_CONFIG': {
        'conformance': {'quota_usage_from_placement': True}}},
}


class TreeFixture(testtools.TestCase):
    """A temporary project tree: zuul.d/, playbooks/, guidelines/."""

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        for folder in ('zuul.d', 'playbooks/files', 'guidelines'):
            os.makedirs(os.path.join(self.root, folder))
        self.playbook('ok.yaml', '- hosts: all\n  tasks: []\n')
        self.playbook('devstack.yaml', DEVSTACK_PLAYBOOK)
        self.playbook('suite.yaml', SUITE_PLAYBOOK)
        self.playbook('report.yaml', REPORT_PLAYBOOK)
        for seed in ('000', '001', '003'):
            self.playbook('../guidelines/%s-feature.yaml' % seed, 'x: 1\n')

    def write(self, items, name='x.yaml'):
        with open(os.path.join(self.root, 'zuul.d', name), 'w') as f:
            yaml.safe_dump(items, f)

    def playbook(self, name, text):
        with open(os.path.join(self.root, 'playbooks', name), 'w') as f:
            f.write(textwrap.dedent(text))
        return 'playbooks/' + name

    def suite_job(self, name='suite', seeds=('003',), **job):
        """A DevStack job that runs the suite the way the rules want."""
        vars_ = job.pop('vars', {})
        vars_.setdefault('conformance_seeds', list(seeds))
        vars_.setdefault('zuul_copy_output', STAGED)
        job.setdefault('parent', 'devstack-tempest')
        job.setdefault('run', ['playbooks/devstack.yaml',
                               'playbooks/suite.yaml'])
        job.setdefault('post-run', 'playbooks/report.yaml')
        job.setdefault('irrelevant-files', DOCS)
        return {'job': dict(name=name, vars=vars_, **job)}

    def check(self, *jobs):
        names = [j['job']['name'] for j in jobs
                 if not j['job'].get('abstract')]
        self.write(list(jobs) + [{'project': {'check': {'jobs': names}}}])
        return check_zuul.problems(self.root)


class SchemaTest(TreeFixture):

    def test_real_tree_has_no_problems(self):
        self.assertEqual([], check_zuul.problems())

    def test_consistent_temp_tree_has_no_problems(self):
        self.write([
            {'job': {'name': 'base-job', 'parent': 'devstack',
                     'abstract': True}},
            {'job': {'name': 'good', 'parent': 'base-job',
                     'run': ['playbooks/devstack.yaml',
                             'playbooks/suite.yaml'],
                     'post-run': 'playbooks/report.yaml',
                     'irrelevant-files': DOCS,
                     'vars': {'conformance_seeds': ['003'],
                              'zuul_copy_output': STAGED}}},
            {'project': {'check': {'jobs': ['good']}}},
        ])
        self.assertEqual([], check_zuul.problems(self.root))

    def test_each_problem_is_reported(self):
        self.write([
            {'job': {'name': 'abstract-job', 'parent': 'devstack',
                     'abstract': True}},
            {'job': {'name': 'orphan', 'parent': 'conformance-gone'}},
            {'project': {
                'check': {'jobs': ['conformance-undefined', 'abstract-job',
                                   'orphan', 'openstack-tox-pep8']},
            }},
        ])
        found = check_zuul.problems(self.root)
        self.assertIn('check runs job conformance-undefined, which is not '
                      'defined', found)
        self.assertIn('check runs abstract job abstract-job', found)
        self.assertIn('job orphan: parent conformance-gone is defined '
                      'nowhere', found)
        self.assertEqual(3, len(found), found)

    def test_job_entry_as_mapping_is_understood(self):
        self.write([
            {'job': {'name': 'good', 'parent': 'tox'}},
            {'project': {'gate': {'jobs': [
                {'good': {'voting': False}}, {'conformance-bad': {}}]}}},
        ])
        self.assertEqual(
            ['gate runs job conformance-bad, which is not defined'],
            check_zuul.problems(self.root))

    def test_unknown_key_pipeline_and_duplicate(self):
        self.write([
            {'job': {'name': 'j', 'parent': 'tox', 'colour': 'red'}},
            {'job': {'name': 'j', 'parent': 'tox'}},
            {'project': {'chek': {'jobs': ['j']}}},
        ])
        found = check_zuul.problems(self.root)
        self.assertIn('job j is defined twice', found)
        self.assertIn('project: unknown pipeline chek', found)
        # Unknown keys are zuulcilint's (tox -e pep8).
        self.assertEqual(2, len(found), found)

    def test_templates_queue_nodesets_and_project_templates(self):
        self.write([
            {'nodeset': {'name': 'n', 'nodes': [
                {'name': 'controller', 'label': 'debian-trixie'}]}},
            {'job': {'name': 'j', 'parent': 'tox'}},
            {'project-template': {'name': 't', 'check': {'jobs': ['j']}}},
            {'project': {'templates': ['t', 'tempest-plugin-jobs'],
                         'queue': 'conformance',
                         'check': {'jobs': ['j', 'openstack-tox-pep8']}}},
        ])
        self.assertEqual([], check_zuul.problems(self.root))

    def test_no_project_stanza(self):
        self.write([{'job': {'name': 'j', 'parent': 'tox'}}])
        self.assertEqual(['no project stanza: no job would ever run'],
                         check_zuul.problems(self.root))

    def test_playbook_given_as_mapping_is_understood(self):
        found = self.check(self.suite_job(run=[
            {'name': 'playbooks/devstack.yaml'},
            {'name': 'playbooks/suite.yaml', 'semaphores': 's'}]))
        self.assertEqual([], found)


class DevStackFirstTest(TreeFixture):
    """Rule (a): what needs DevStack is never in pre-run."""

    def test_devstack_setup_in_pre_run_is_rejected(self):
        pre = self.playbook('cells-pre.yaml', CELLS_SETUP.replace(
            'secretmysql', '"{{ devstack_localrc.DATABASE_PASSWORD }}"'))
        found = self.check(self.suite_job(seeds=['003'], **{'pre-run': pre}))
        self.assertEqual(1, len(found), found)
        self.assertIn('job suite: pre-run playbook playbooks/cells-pre.yaml '
                      'uses ', found[0])
        for what in ("DevStack's openrc", 'nova-manage', "DevStack's MySQL",
                     'devstack@ units'):
            self.assertIn(what, found[0])
        self.assertIn('move it into the run list after the DevStack '
                      'playbook', found[0])

    def test_each_devstack_marker_is_caught_alone(self):
        for line in ('cat /opt/stack/devstack/local.conf',
                     'ls {{ devstack_base_dir }}',
                     '. openrc', 'nova-manage db version',
                     'openstack server list', 'mysql -e "SELECT 1"',
                     'systemctl status devstack@n-api',
                     'cat /etc/nova/nova.conf',
                     'cat /opt/tempest.conf',
                     'conformance cleanup'):
            pre = self.playbook('pre.yaml', '- hosts: all\n  tasks:\n'
                                '    - shell: %s\n' % line)
            found = self.check(self.suite_job(**{'pre-run': pre}))
            self.assertEqual(1, len(found), (line, found))

    def test_included_playbook_counts_and_comments_do_not(self):
        self.playbook('inner.yaml', '- hosts: all\n  tasks:\n'
                      '    - shell: nova-manage cell_v2 list_cells\n')
        pre = self.playbook('outer.yaml', '# nova-manage is named here\n'
                            '- import_playbook: inner.yaml\n')
        found = self.check(self.suite_job(**{'pre-run': pre}))
        self.assertEqual(1, len(found), found)
        self.assertIn('uses nova-manage,', found[0])

    def test_pre_run_of_a_plain_tox_job_may_use_mysql(self):
        pre = self.playbook('pre.yaml', '- hosts: all\n  tasks:\n'
                            '    - shell: apt-get install -y mysql-server\n')
        self.assertEqual([], self.check(
            {'job': {'name': 'unit', 'parent': 'tox', 'pre-run': pre}}))

    def test_setup_before_devstack_in_the_run_list_is_rejected(self):
        setup = self.playbook('zone.yaml', '- hosts: all\n  tasks:\n'
                              '    - shell: openstack aggregate list\n')
        found = self.check(self.suite_job(run=[
            setup, 'playbooks/devstack.yaml', 'playbooks/suite.yaml']))
        self.assertEqual(['job suite: run playbook playbooks/zone.yaml uses '
                          'the openstack CLI before any playbook of its run '
                          'list installs DevStack'], found)

    def test_run_list_without_devstack_is_rejected(self):
        found = self.check(self.suite_job(run=['playbooks/ok.yaml',
                                               'playbooks/suite.yaml']))
        self.assertEqual(1, len(found), found)
        self.assertIn('no playbook of its run list installs DevStack',
                      found[0])


class LiteralSecretsTest(TreeFixture):
    """Rule (b): secrets come from DevStack's variables."""

    def test_old_cells_playbook_and_fault_script_are_rejected(self):
        self.playbook('cells.yaml', CELLS_SETUP)
        self.playbook('files/fault.sh', (
            '#!/bin/bash\n'
            'mysql_root=(mysql -uroot -p"${MYSQL_ROOT_PASSWORD:-secretmysql}"'
            ' -h "${DATABASE_HOST:-127.0.0.1}")\n'))
        found = self.check(self.suite_job())
        self.assertEqual(2, len(found), found)
        self.assertTrue(found[0].startswith('playbooks/cells.yaml:10: '
                                            "DevStack's secret 'secretmysql'"),
                        found)
        self.assertTrue(found[1].startswith('playbooks/files/fault.sh:2: '
                                            "DevStack's secret 'secretmysql'"),
                        found)
        self.assertIn("take secrets from DevStack's variables", found[0])

    def test_devstack_secret_in_job_vars_is_rejected(self):
        found = self.check(self.suite_job(vars={
            'conformance_seeds': ['003'],
            'devstack_localrc': {'DATABASE_PASSWORD': 'secretdatabase'}}))
        self.assertEqual(1, len(found), found)
        self.assertIn("DevStack's secret 'secretdatabase'", found[0])
        self.assertTrue(found[0].startswith('zuul.d/x.yaml:'), found)

    def test_other_literals_are_rejected_without_showing_them(self):
        for line in ('mysql -uroot -phunter2 -e "SELECT 1"',
                     'mysqladmin --password=hunter2 ping',
                     "CREATE USER 'a'@'%' IDENTIFIED BY 'hunter2';",
                     'admin_password: hunter2',
                     'mysql -uroot -p"${DB_PASS:-hunter2}"'):
            self.playbook('s.yaml', '- hosts: all\n  tasks:\n'
                          '    - shell: %s\n' % line)
            found = self.check(self.suite_job())
            self.assertEqual(1, len(found), (line, found))
            self.assertIn('playbooks/s.yaml:3: a literal', found[0])
            self.assertNotIn('hunter2', found[0])

    def test_references_are_accepted(self):
        for line in ('mysql -uroot -p"$DATABASE_PASSWORD" -e "SELECT 1"',
                     'mysql -uroot -p{{ devstack_localrc.DATABASE_PASSWORD }}',
                     "CREATE USER 'a' IDENTIFIED BY '$MYSQL_PWD';",
                     'password: "{{ devstack_localrc.ADMIN_PASSWORD }}"',
                     'MYSQL_PWD=$(openssl rand -hex 12)',
                     'mkdir -p /tmp/x'):
            self.playbook('s.yaml', '- hosts: all\n  tasks:\n'
                          '    - shell: %s\n' % line)
            self.assertEqual([], self.check(self.suite_job()), line)

    def test_comments_may_name_secrets(self):
        self.playbook('s.yaml', '# DevStack sets secretdatabase itself\n'
                      '- hosts: all\n  tasks: []\n')
        self.assertEqual([], self.check(self.suite_job()))


class SeedConfigTest(TreeFixture):
    """Rule (c): a job running seed 001 counts quota from placement."""

    def test_seed_001_on_a_legacy_quota_nova_is_rejected(self):
        found = self.check(self.suite_job(seeds=['000', '001']))
        self.assertEqual([
            "job suite runs seed 001, so it must set nova's [quota] "
            'count_usage_from_placement = True (devstack_local_conf '
            'post-config $NOVA_CONF)',
            "job suite runs seed 001, so it must set Tempest's "
            '[conformance] quota_usage_from_placement = true '
            '(devstack_local_conf test-config $TEMPEST_CONFIG)'], found)

    def test_nova_config_alone_is_not_enough(self):
        config = {'post-config': QUOTA_CONFIG['post-config']}
        found = self.check(self.suite_job(vars={
            'conformance_seeds': ['001'], 'devstack_local_conf': config}))
        self.assertEqual(1, len(found), found)
        self.assertIn('quota_usage_from_placement = true', found[0])

    def test_false_is_rejected_and_inherited_true_accepted(self):
        legacy = {'post-config': {'$NOVA_CONF': {'quota': {
            'count_usage_from_placement': 'False'}}}}
        found = self.check(self.suite_job(vars={
            'conformance_seeds': ['001'],
            'devstack_local_conf': dict(QUOTA_CONFIG, **legacy)}))
        self.assertEqual(1, len(found), found)
        found = self.check(
            {'job': {'name': 'base', 'parent': 'devstack-tempest',
                     'abstract': True,
                     'vars': {'devstack_local_conf': QUOTA_CONFIG}}},
            self.suite_job(parent='base', seeds=['001']))
        self.assertEqual([], found)

    def test_other_seeds_need_no_quota_config(self):
        self.assertEqual([], self.check(self.suite_job(seeds=['000'])))


class FakeDriverQuotaTest(TreeFixture):
    """A fake-driver job running a quota seed names a counting driver."""

    FAKE = {'VIRT_DRIVER': 'fake'}

    def setUp(self):
        super().setUp()
        self.playbook('../guidelines/004-feature.yaml', 'x: 1\n')

    def test_the_fake_drivers_noop_quota_is_rejected(self):
        found = self.check(self.suite_job(seeds=['004'], vars={
            'devstack_localrc': self.FAKE}))
        self.assertEqual([
            "job suite runs seed 004 with nova's fake virt driver, whose "
            'DevStack plugin sets [quota] driver = nova.quota.'
            'NoopQuotaDriver (every usage -1): set nova.quota.DbQuotaDriver '
            '(devstack_local_conf post-config $NOVA_CONF quota driver)'],
            found)

    def test_a_counting_driver_or_another_seed_or_driver_passes(self):
        counting = {'post-config': {'$NOVA_CONF': {'quota': {
            'driver': 'nova.quota.DbQuotaDriver'}}}}
        self.assertEqual([], self.check(self.suite_job(seeds=['004'], vars={
            'devstack_localrc': self.FAKE,
            'devstack_local_conf': counting})))
        self.assertEqual([], self.check(self.suite_job(seeds=['000'], vars={
            'devstack_localrc': self.FAKE})))
        self.assertEqual([], self.check(self.suite_job(seeds=['004'])))


class SuiteBySeedTest(TreeFixture):
    """Rule (d): every job runs `conformance run --seed`, no regex."""

    def test_old_regex_job_is_rejected(self):
        found = self.check({'job': {
            'name': 'old', 'parent': 'devstack-tempest',
            'irrelevant-files': DOCS,
            'vars': {'tempest_test_regex':
                     r'^conformance_tests\.api\.placement\.'}}})
        self.assertEqual([
            'job old: hand-written tempest_test_regex: name the seeds in '
            'conformance_seeds; `conformance run --seed` derives the tests '
            'from guidelines/',
            'job old: set conformance_seeds, the list of seeds it runs '
            '(e.g. ["003"])',
            "job old runs devstack-tempest's own run playbook (Tempest with "
            'a regex): give it a run list ending with '
            'playbooks/conformance-run.yaml'], found)

    def test_regex_next_to_seeds_is_still_rejected(self):
        found = self.check(self.suite_job(vars={
            'conformance_seeds': ['003'], 'tempest_test_regex': 'x'}))
        self.assertEqual(1, len(found), found)
        self.assertIn('hand-written tempest_test_regex', found[0])

    def test_run_list_that_never_runs_the_suite_by_seed(self):
        self.playbook('tempest.yaml', '- hosts: tempest\n  roles:\n'
                      '    - run-tempest\n')
        found = self.check(self.suite_job(run=['playbooks/devstack.yaml',
                                               'playbooks/tempest.yaml']))
        self.assertEqual(['job suite: no playbook of its run list runs '
                          '`conformance run ... --seed`'], found)

    def test_seed_ids_must_exist_and_be_strings(self):
        found = self.check(self.suite_job(seeds=[1, '002']))
        self.assertEqual([
            "job suite: seed 1 is not a seed id: quote it (e.g. '001'; YAML "
            'reads 001 as a number)',
            'job suite: seed 002 has no guidelines/002-*.yaml'], found)

    def test_abstract_base_and_tox_jobs_are_not_suite_runs(self):
        self.assertEqual([], self.check(
            {'job': {'name': 'base', 'parent': 'devstack-tempest',
                     'abstract': True}},
            {'job': {'name': 'self-check', 'parent': 'tox'}},
            self.suite_job(parent='base')))


UNMAINTAINED = {'TEMPEST_VENV_UPPER_CONSTRAINTS':
                '/opt/stack/requirements/upper-constraints.txt'}


class ReleaseBranchTest(TreeFixture):
    """A job on an older series' DevStack is judged by that series'
    expectations: its branch and conformance_release go together."""

    def test_branch_and_release_in_step(self):
        self.assertEqual([], self.check(
            self.suite_job(),
            self.suite_job('old',
                           vars={'conformance_release': '2024.1',
                                 'devstack_localrc': UNMAINTAINED},
                           **{'override-checkout': 'unmaintained/2024.1'})))

    def test_a_branch_without_its_release_and_the_reverse(self):
        found = self.check(
            self.suite_job('no-release',
                           **{'override-checkout': 'stable/2025.1'}),
            self.suite_job('no-branch',
                           vars={'conformance_release': '2025.1'}),
            self.suite_job('unknown', vars={'conformance_release': '2019.1'},
                           **{'override-checkout': 'stable/2019.1'}))
        self.assertEqual([
            'job no-release runs on stable/2025.1, so it must set '
            'conformance_release: "2025.1" (it has None)',
            "job no-branch sets conformance_release '2025.1' but runs on "
            'master: set override-checkout to stable/2025.1 or '
            'unmaintained/2025.1',
            "job unknown: conformance_release '2019.1' is not an older "
            'series the suite knows (2024.1, 2024.2, 2025.1, 2025.2, '
            '2026.1)'], found)


class ResultsWhereTheEcosystemLooksTest(TreeFixture):
    """fetch-subunit-output and process-stackviz read Tempest's .stestr;
    devstack-tempest publishes the stage dir, not /opt/stack."""

    def test_old_report_playbook_is_rejected(self):
        old = self.playbook('old-report.yaml', OLD_REPORT_PLAYBOOK)
        found = self.check(self.suite_job(**{'post-run': old}))
        self.assertEqual(3, len(found), found)
        self.assertIn("no post-run playbook loads the suite's subunit into "
                      "Tempest's stestr repository", found[0])
        self.assertIn("copies test_results.subunit to {{ devstack_base_dir "
                      "| default('/opt/stack') }}/test_results.subunit, "
                      'which nothing publishes', found[1])
        self.assertIn('no post-run playbook keeps report.html', found[2])

    def test_a_load_outside_tempests_directory_is_rejected(self):
        elsewhere = self.playbook('report2.yaml', REPORT_PLAYBOOK.replace(
            '/tempest"', '/results"'))
        found = self.check(self.suite_job(**{'post-run': elsewhere}))
        self.assertEqual(1, len(found), found)
        self.assertIn('`stestr load` with chdir', found[0])

    def test_a_parents_post_run_counts(self):
        self.assertEqual([], self.check(
            {'job': {'name': 'base', 'parent': 'devstack-tempest',
                     'abstract': True,
                     'post-run': 'playbooks/report.yaml'}},
            self.suite_job(parent='base', **{'post-run': []})))


class ReportKeptTest(TreeFixture):
    """report.html, the page for people, is kept with the logs."""

    def test_report_outside_any_published_place_is_rejected(self):
        found = self.check(self.suite_job(vars={
            'conformance_seeds': ['003'], 'zuul_copy_output': {}}))
        self.assertEqual([
            'job suite: its post-run keeps the report where no log '
            'publisher looks: copy it under {{ stage_dir }} and name that '
            'directory in zuul_copy_output'], found)

    def test_a_fetch_to_the_executors_logs_is_kept(self):
        fetched = self.playbook('fetch.yaml', REPORT_PLAYBOOK.replace(
            '"{{ stage_dir }}/conformance/report.html"',
            '"{{ zuul.executor.log_root }}/conformance/"').replace(
            '    - copy:', '    - fetch:').replace(
            '        remote_src: true\n', ''))
        found = self.check(self.suite_job(**{'post-run': fetched}))
        self.assertEqual([], found)


class InventoryTest(TreeFixture):

    def test_a_run_without_inventory_is_rejected(self):
        self.playbook('suite.yaml', SUITE_PLAYBOOK.replace(
            '        --inventory\n', ''))
        self.assertEqual([
            'job suite: playbooks/suite.yaml runs `conformance run` without '
            '--inventory: add it, so a run that leaves objects behind on '
            'DevStack fails'], self.check(self.suite_job()))


class PluginRequiredTest(TreeFixture):

    def base(self, projects):
        return {'job': {'name': 'base', 'parent': 'devstack-tempest',
                        'abstract': True, 'required-projects': projects,
                        'vars': {'tempest_plugins': ['conformance-tests']}}}

    def test_plugin_missing_from_required_projects_is_rejected(self):
        found = self.check(self.base(['opendev.org/openstack/tempest']),
                           self.suite_job(parent='base'))
        self.assertEqual([
            'job base: tempest_plugins names conformance-tests but '
            'required-projects does not list it: add '
            'opendev.org/openstack/conformance-tests, or the job cannot '
            "run for another project's change"], found)

    def test_plugin_listed_by_name_or_mapping_is_accepted(self):
        for entry in ('opendev.org/openstack/conformance-tests',
                      {'name': 'openstack/conformance-tests'}):
            self.assertEqual([], self.check(self.base([entry]),
                                            self.suite_job(parent='base')))


class IrrelevantFilesTest(TreeFixture):

    def test_a_devstack_job_without_irrelevant_files_is_rejected(self):
        found = self.check(self.suite_job(**{'irrelevant-files': []}))
        self.assertEqual(1, len(found), found)
        self.assertIn('job suite: no irrelevant-files, so a docs-only '
                      'change runs this DevStack job', found[0])

    def test_irrelevant_files_must_cover_markdown(self):
        # devstack-base's own list: .rst and doc/, not this tree's .md.
        found = self.check(self.suite_job(**{'irrelevant-files': [
            r'^.*\.rst$', '^doc/.*$', '^releasenotes/.*$']}))
        self.assertEqual([
            'job suite: irrelevant-files do not cover README.md: a change '
            'of it alone runs this DevStack job'], found)

    def test_inherited_irrelevant_files_count(self):
        child = self.suite_job(parent='base')
        del child['job']['irrelevant-files']
        self.assertEqual([], self.check(
            {'job': {'name': 'base', 'parent': 'devstack-tempest',
                     'abstract': True, 'irrelevant-files': DOCS}}, child))


class CheckAsRootTest(TreeFixture):
    """`tox -e check` needs root; its system packages come from bindep."""

    SELF_CHECK = """\
- hosts: all
  tasks:
    - become: %s
      command: "{{ tox_executable | default('tox') }} -e check"
"""

    def setUp(self):
        super().setUp()
        self.bindep(BINDEP)

    def bindep(self, text):
        with open(os.path.join(self.root, 'bindep.txt'), 'w') as f:
            f.write(text)

    def self_check(self, become):
        run = self.playbook('self-check.yaml', self.SELF_CHECK % become)
        return {'job': {'name': 'self-check', 'parent': 'tox', 'run': run,
                        'vars': {'tox_envlist': 'check'}}}

    def test_tox_jobs_own_run_playbook_is_rejected(self):
        found = self.check({'job': {'name': 'self-check', 'parent': 'tox',
                                    'vars': {'tox_envlist': 'check'}}})
        self.assertEqual([
            "job self-check runs `tox -e check` through tox's own run "
            'playbook, as the zuul user, but the check needs root '
            '(debootstrap, chroot, apt): give it a run playbook that runs '
            'tox with become'], found)

    def test_a_task_without_become_is_rejected(self):
        found = self.check(self.self_check('false'))
        self.assertEqual([
            'job self-check: playbooks/self-check.yaml runs `tox -e check` '
            'without become, but the check needs root (debootstrap, '
            'chroot, apt): set become: true on the task'], found)

    def test_become_and_other_envs_are_accepted(self):
        self.assertEqual([], self.check(self.self_check('true')))
        self.assertEqual([], self.check(
            {'job': {'name': 'pep8', 'parent': 'tox',
                     'vars': {'tox_envlist': 'pep8,py3'}}}))

    def test_no_bindep_is_rejected(self):
        os.remove(os.path.join(self.root, 'bindep.txt'))
        found = self.check(self.self_check('true'))
        self.assertEqual(1, len(found), found)
        self.assertTrue(found[0].startswith('no bindep.txt: '), found)

    def test_bindep_without_a_package_the_check_installs(self):
        self.bindep('# chromium comes later\ndebootstrap [self-check]\n')
        self.assertEqual([
            'bindep.txt does not name chromium, which `tox -e check` '
            "needs: add it to the check's profile"],
            self.check(self.self_check('true')))

    def test_no_check_job_needs_no_bindep(self):
        os.remove(os.path.join(self.root, 'bindep.txt'))
        self.assertEqual([], self.check(self.suite_job()))


class UnmaintainedConstraintsTest(TreeFixture):
    """A job on an unmaintained branch says what Tempest installs under."""

    def old(self, **localrc):
        return self.suite_job(
            'old', vars={'conformance_release': '2024.1',
                         'devstack_localrc': localrc},
            **{'override-checkout': 'unmaintained/2024.1',
               'required-projects': [{'name': 'opendev.org/openstack/tempest',
                                      'override-checkout': '46.0.0'}]})

    def test_no_constraints_and_devstacks_own_tempest_are_rejected(self):
        found = self.check(self.old())
        self.assertEqual(2, len(found), found)
        self.assertIn('TEMPEST_VENV_UPPER_CONSTRAINTS', found[0])
        self.assertIn("checks Tempest out at 46.0.0 but DevStack's "
                      'TEMPEST_BRANCH is None', found[1])

    def test_both_said_is_accepted(self):
        self.assertEqual([], self.check(self.old(
            TEMPEST_BRANCH='46.0.0', **UNMAINTAINED)))
