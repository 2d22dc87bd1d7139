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

"""devstack/sources and the deploy helpers that need no node: which
series a branch takes its services from, where DevStack's trees come
from, the change as Zuul gives it, a job's branch and nodeset, and the
one-line refusals."""

import configparser
import os
import subprocess
import tarfile
from unittest import mock

import fixtures
import testtools
import yaml

from conformance_tests.cloud import releases
from conformance_tests.devstack import container
from conformance_tests.devstack import deploy
from conformance_tests.devstack import sources


class SeriesTest(testtools.TestCase):

    def test_branches_name_their_series_and_master_the_newest(self):
        self.assertEqual('2024.1', sources.series_of('unmaintained/2024.1'))
        self.assertEqual('2025.1', sources.series_of('stable/2025.1'))
        self.assertEqual(sources.NEWEST_SERIES, sources.series_of('master'))

    def test_a_master_job_takes_the_newest_series_branch(self):
        self.assertEqual('stable/' + sources.NEWEST_SERIES,
                         sources.source_branch('master'))
        self.assertEqual('stable/2025.1',
                         sources.source_branch('stable/2025.1'))

    def test_another_branch_is_refused(self):
        e = self.assertRaises(sources.SourceError, sources.series_of,
                              'feature/x')
        self.assertIn('give one of those', str(e))

    def test_services_file_pins_are_read(self):
        pins = sources.services_versions('2025.1')
        self.assertIn('openstack-placement', pins)
        self.assertRegex(pins['tempest'], r'^\d+\.\d+\.\d+$')


class TarballTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.src = self.useFixture(fixtures.TempDir()).path

    def test_a_branch_tarball_is_found_and_extracted(self):
        tree = os.path.join(self.src, 'tree', 'devstack')
        os.makedirs(tree)
        with open(os.path.join(tree, 'stack.sh'), 'w') as f:
            f.write('#!/bin/bash\n')
        archive = os.path.join(self.src, 'devstack-stable-2025.1.tar.gz')
        with tarfile.open(archive, 'w:gz') as tar:
            tar.add(tree, 'devstack')
        found = sources.tarball(self.src, 'devstack', 'stable/2025.1')
        self.assertEqual(archive, found)
        dest = os.path.join(self.src, 'out')
        sources.extract(found, dest)
        self.assertTrue(os.path.isfile(os.path.join(dest, 'stack.sh')))

    def test_a_missing_tarball_says_what_to_put_where(self):
        e = self.assertRaises(sources.SourceError, sources.tarball,
                              self.src, 'requirements', 'master')
        self.assertIn('requirements-master.tar.gz', str(e))
        self.assertIn('--devstack-src', str(e))


class ChangeTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.repo = self.useFixture(fixtures.TempDir()).path
        env = dict(os.environ, **sources.GIT_ENV)
        for argv in (['init', '-q', '-b', 'main'],
                     ['commit', '-q', '--allow-empty', '-m', 'one']):
            subprocess.run(['git', '-C', self.repo] + argv, check=True,
                           env=env)

    def _head(self):
        return subprocess.run(['git', '-C', self.repo, 'rev-parse', 'HEAD'],
                              stdout=subprocess.PIPE, text=True,
                              check=True).stdout.strip()

    def test_a_clean_checkout_gives_its_head(self):
        self.assertEqual(self._head(), sources._change(self.repo))

    def test_changes_and_new_files_are_in_the_change_not_in_the_index(self):
        with open(os.path.join(self.repo, 'new.txt'), 'w') as f:
            f.write('new\n')
        change = sources._change(self.repo)
        self.assertNotEqual(self._head(), change)
        shown = subprocess.run(
            ['git', '-C', self.repo, 'show', '%s:new.txt' % change],
            stdout=subprocess.PIPE, text=True, check=True).stdout
        self.assertEqual('new\n', shown)
        status = subprocess.run(['git', '-C', self.repo, 'status',
                                 '--porcelain'], stdout=subprocess.PIPE,
                                text=True, check=True).stdout
        self.assertEqual('?? new.txt\n', status)


class JobBranchTest(testtools.TestCase):

    def test_master_jobs_and_stable_ones(self):
        self.assertEqual('master',
                         deploy.job_branch('conformance-placement'))
        self.assertEqual('unmaintained/2024.1',
                         deploy.job_branch('conformance-placement-2024-1'))
        self.assertEqual('stable/2025.1',
                         deploy.job_branch('conformance-compute-2025-1'))

    def test_the_tox_job_is_refused(self):
        e = self.assertRaises(deploy.DevStackError, deploy.job_branch,
                              'conformance-self-check')
        self.assertIn('not a DevStack job', str(e))


class HostTest(testtools.TestCase):

    def test_not_root_is_one_line(self):
        with mock.patch('os.geteuid', return_value=1000):
            e = self.assertRaises(container.ContainerError,
                                  container.require_host)
        self.assertIn('run it as root', str(e))

    def test_no_nspawn_names_the_package(self):
        with mock.patch('os.geteuid', return_value=0), \
                mock.patch('shutil.which', return_value=None):
            e = self.assertRaises(container.ContainerError,
                                  container.require_host)
        self.assertIn('systemd-container', str(e))

    def test_root_on_debian_installs_systemd_container_first(self):
        said, ran = [], []
        found = {'apt-get': '/usr/bin/apt-get'}

        def installed(cmd, log, what, env=None):
            ran.append(cmd)
            found['systemd-nspawn'] = '/usr/bin/systemd-nspawn'

        with mock.patch('os.geteuid', return_value=0), \
                mock.patch('shutil.which', side_effect=found.get), \
                mock.patch.object(container.chroot, 'run_logged',
                                  side_effect=installed):
            container.require_host(said.append, '/nowhere/host.log')
        self.assertEqual([['apt-get', 'install', '-y', '-q',
                           'systemd-container']], ran)
        self.assertIn('installing systemd-container', said[0])


class StackLogCauseTest(testtools.TestCase):
    """stack.sh's failure, read from a devstacklog as DevStack writes it."""

    PREFIX = '2026-12-04 16:56:03.631 | '

    def _log(self, *texts):
        return [self.PREFIX + t for t in texts]

    def test_the_trapped_function_and_its_error_output(self):
        lines = self._log(
            '+ ./stack.sh:main:517                      :   trap exit_trap'
            ' EXIT',
            'ERROR: an old harmless line long before',
            '+ lib/host:configure_ksm:19                :   sudo tee '
            '/sys/kernel/mm/ksm/run',
            '+ lib/host:configure_ksm:19                :   echo 0',
            'tee: /sys/kernel/mm/ksm/run: Read-only file system',
            '0',
            '+ lib/host:configure_ksm:1                 :   exit_trap',
            '+ ./stack.sh:exit_trap:519                 :   local r=1',
            'Error on exit')
        self.assertEqual('lib/host:configure_ksm: tee: /sys/kernel/mm/ksm/'
                         'run: Read-only file system',
                         deploy.stack_log_cause(lines))

    def test_devstacks_own_error_line_wins(self):
        lines = self._log(
            '[ERROR] /opt/stack/devstack/functions-common:643 git call '
            'failed: [git clone foo]',
            'some unrelated failure text after it',
            '+ functions-common:git_clone:643           :   exit_trap')
        self.assertEqual(
            'functions-common:git_clone: [ERROR] /opt/stack/devstack/'
            'functions-common:643 git call failed: [git clone foo]',
            deploy.stack_log_cause(lines))

    def test_dies_whole_message_over_its_cut_error_line(self):
        lines = self._log(
            '++ functions:get_extra_file:77              :   die '
            "'https://x/etcd.tar.gz could not be downloaded'",
            '[ERROR] /opt/stack/devstack/functions:https://x/etcd.tar.gz '
            'could',
            '+ lib/etcd3:install_etcd3:1                :   exit_trap')
        self.assertEqual('lib/etcd3:install_etcd3: https://x/etcd.tar.gz '
                         'could not be downloaded',
                         deploy.stack_log_cause(lines))
        lines = self._log(
            '+ functions-common:git_clone:643           :   die 643 '
            "'Cloning not allowed in this configuration'",
            '+ functions-common:git_clone:1             :   exit_trap')
        self.assertEqual('functions-common:git_clone: Cloning not allowed '
                         'in this configuration',
                         deploy.stack_log_cause(lines))

    def test_a_die_names_its_call_trace_and_what_came_before(self):
        # die exits without the traced exit_trap line; its [Call Trace]
        # says where.
        lines = self._log(
            '+ functions-common:git_clone:618           :   echo \'The '
            '/opt/stack/neutron project was not found\'',
            'The /opt/stack/neutron project was not found; if this is a '
            'gate job, add',
            'the project to the $PROJECTS variable in the job definition.',
            '+ functions-common:git_clone:620           :   die 620 '
            "'ERROR_ON_CLONE is set to True so cloning not allowed in this "
            "configuration'",
            '+ functions-common:die:288                 :   local '
            'exitcode=0',
            '[Call Trace]',
            './stack.sh:950:stack_install_service',
            '/opt/stack/devstack/lib/stack:32:install_neutron',
            '/opt/stack/devstack/lib/neutron:525:git_clone',
            '/opt/stack/devstack/functions-common:620:die',
            '[ERROR] /opt/stack/devstack/functions-common:620 ERROR_ON_'
            'CLONE is set to True so cloning not allowed in this '
            'configuration',
            'Error on exit')
        self.assertEqual(
            'install_neutron > git_clone: ERROR_ON_CLONE is set to True so '
            'cloning not allowed in this configuration (The /opt/stack/'
            'neutron project was not found; if this is a gate job, add the '
            'project to the $PROJECTS variable in the job definition.)',
            deploy.stack_log_cause(lines))

    def test_err_trap_names_the_function_whose_command_failed(self):
        # DevStack 2026.1: upload_image returns 1 after its last attempt,
        # and stack.sh's ERR trap fires in main.
        lines = self._log(
            '+ functions:upload_image:153               :   wget -c '
            'https://github.com/cirros-dev/cirros/x.img -O x.img',
            "wget: unable to resolve host address 'github.com'",
            '+ functions:upload_image:156               :   echo '
            "'Not found: https://github.com/cirros-dev/cirros/x.img'",
            'Not found: https://github.com/cirros-dev/cirros/x.img',
            '+ functions:upload_image:158               :   return 1',
            '++ ./stack.sh:main:1368                     :   err_trap',
            '++ ./stack.sh:err_trap:1368                 :   local r=1',
            'stack.sh failed: full log in /opt/stack/logs/devstacklog.txt',
            'exit_trap: cleaning up child processes',
            'Error on exit')
        self.assertEqual('functions:upload_image: Not found: '
                         'https://github.com/cirros-dev/cirros/x.img',
                         deploy.stack_log_cause(lines))

    def test_a_plugin_command_that_failed_before_error_on_exit(self):
        # heat's test-config under set -e: no trap is traced, only
        # exit_trap's "Error on exit" after the command's output.
        lines = self._log(
            '++ /opt/stack/heat/devstack/lib/heat:configure_tempest_for_heat'
            ':336 :   oscwrap router add subnet router1 heat-subnet',
            'No Router found for router1',
            'Error on exit')
        self.assertEqual('/opt/stack/heat/devstack/lib/heat:configure_'
                         'tempest_for_heat: No Router found for router1',
                         deploy.stack_log_cause(lines))

    def test_a_log_that_never_trapped_has_no_cause(self):
        self.assertIsNone(deploy.stack_log_cause(self._log(
            '+ ./stack.sh:main:1 :   echo hello', 'hello')))


class JudgedReleaseTest(testtools.TestCase):

    def test_a_master_job_run_on_a_stable_branch_is_judged_by_it(self):
        said = []
        self.assertEqual('2026.1', deploy.judged_release(
            'master', 'stable/2026.1', {}, said.append))
        self.assertIn("judged by 2026.1's expectations", said[0])

    def test_a_job_on_its_own_branch_or_naming_its_release_is_left(self):
        self.assertIsNone(deploy.judged_release(
            'stable/2025.1', 'stable/2025.1', {}, None))
        self.assertIsNone(deploy.judged_release(
            'master', 'stable/2026.1', {'conformance_release': '2025.1'},
            None))


class ReleaseVersionsTest(testtools.TestCase):

    def test_the_sdists_versions_not_the_tarballs_or_the_missing(self):
        got = sources.release_versions(
            ['opendev.org/openstack/devstack',
             'opendev.org/openstack/placement',
             'opendev.org/openstack/cinder'], 'stable/2026.1')
        self.assertEqual({'openstack-placement': sources.services_versions(
            '2026.1')['openstack-placement']}, got)

    def test_devstack_only_projects_are_pinned_apart(self):
        # neutron runs only in DevStack: laid out from its sdist, never
        # installed into a release virtualenv.
        for series in ('2024.1', '2025.1', '2026.1'):
            self.assertIn('neutron', sources.services_versions(series))
            with open(releases.services_file(series)) as f:
                self.assertNotIn('neutron', f.read())


class DefaultSourcesTest(testtools.TestCase):

    def _repo(self, path):
        subprocess.run(['git', 'init', '-q', path], check=True)
        return path

    def test_beside_the_checkout_else_beside_its_origin(self):
        top = self.useFixture(fixtures.TempDir()).path
        upstream = os.path.join(top, 'shared', 'upstream')
        os.makedirs(upstream)
        main = self._repo(os.path.join(top, 'main'))
        self.assertEqual(upstream, deploy.default_devstack_src(main))
        elsewhere = self.useFixture(fixtures.TempDir()).path
        clone = os.path.join(elsewhere, 'fresh')
        subprocess.run(['git', 'clone', '-q', main, clone], check=True,
                       stderr=subprocess.DEVNULL)
        self.assertEqual(upstream, deploy.default_devstack_src(clone))

    def test_neither_names_the_place_beside_the_checkout(self):
        lone = self._repo(os.path.join(
            self.useFixture(fixtures.TempDir()).path, 'lone'))
        self.assertEqual(os.path.join(os.path.dirname(lone), 'shared',
                                      'upstream'),
                         deploy.default_devstack_src(lone))


class StandinProjectTest(testtools.TestCase):

    def test_os_test_images_is_a_repository_tempest_can_read(self):
        src = self.useFixture(fixtures.TempDir()).path
        said = []
        missing = sources.lay_out(
            src, ['opendev.org/openstack/os-test-images'], 'stable/2025.1',
            None, None, said.append)
        self.assertEqual([], missing)
        self.assertIn('os-test-images: a stand-in', said[0])
        repo = os.path.join(src, 'opendev.org/openstack/os-test-images')
        with open(os.path.join(repo, 'images', 'manifest.yaml')) as f:
            # Tempest's test_images_formats reads this at discovery.
            self.assertEqual({'images': []}, yaml.safe_load(f))
        config = configparser.ConfigParser()
        config.read(os.path.join(repo, 'tox.ini'))
        self.assertIn('testenv:generate', config)
        branch = subprocess.run(
            ['git', '-C', repo, 'rev-parse', '--abbrev-ref', 'HEAD'],
            stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        self.assertEqual('stable/2025.1', branch)


class OverrideCheckoutTest(testtools.TestCase):

    def test_a_release_tag_picks_that_release(self):
        got = sources.release_versions(
            ['opendev.org/openstack/senlin', 'opendev.org/openstack/nova'],
            'stable/2025.1', {'opendev.org/openstack/senlin': '16.0.0'})
        self.assertEqual('16.0.0', got['senlin'])
        self.assertEqual(sources.services_versions('2025.1')['nova'],
                         got['nova'])

    def test_a_branch_changes_nothing(self):
        got = sources.release_versions(
            ['opendev.org/openstack/nova'], 'stable/2025.1',
            {'opendev.org/openstack/nova': 'stable/2025.1'})
        self.assertEqual(sources.services_versions('2025.1')['nova'],
                         got['nova'])

    def test_heat_is_found_under_its_pypi_name(self):
        got = sources.release_versions(['opendev.org/openstack/heat'],
                                       'stable/2024.1')
        self.assertEqual({'openstack-heat': '22.0.1'}, got)
