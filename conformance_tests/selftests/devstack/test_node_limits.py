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

"""devstack/node_limits.py: what the job's DevStack is told on this node."""

import os
import shutil
import subprocess

import fixtures
import testtools

from conformance_tests.devstack import deploy
from conformance_tests.devstack import node_limits
from conformance_tests.devstack import sources

# What conformance-compute has from the devstack base job (2024.1).
OVN_SERVICES = {'q-svc': True, 'ovn-controller': True, 'ovn-northd': True,
                'ovs-vswitchd': True, 'ovsdb-server': True,
                'q-ovn-metadata-agent': True, 'g-api': True, 'n-cpu': True}
CIRROS = 'http://download.cirros-cloud.net/0.6.2/cirros-0.6.2-x86_64-disk.img'


class KernelTest(testtools.TestCase):

    def test_zswap_is_turned_off_and_said(self):
        said = []
        localrc = {'ENABLE_ZSWAP': True, 'ADMIN_PASSWORD': 'x'}
        got, _ = node_limits.apply(localrc, {}, said.append)
        self.assertEqual(dict(node_limits.KERNEL, ADMIN_PASSWORD='x'), got)
        self.assertEqual(True, localrc['ENABLE_ZSWAP'])
        self.assertEqual(1, len(said))
        self.assertIn('ENABLE_ZSWAP=False on this node', said[0])

    def test_kernel_tuning_a_container_cannot_do_is_off(self):
        said = []
        localrc = {'ENABLE_SYSCTL_MEM_TUNING': True,
                   'ENABLE_SYSCTL_NET_TUNING': True}
        got, _ = node_limits.apply(localrc, {}, said.append)
        self.assertEqual(False, got['ENABLE_SYSCTL_MEM_TUNING'])
        self.assertEqual(False, got['ENABLE_SYSCTL_NET_TUNING'])
        self.assertEqual(False, got['ENABLE_ZSWAP'])
        self.assertEqual(2, len(said), said)


class NeutronTest(testtools.TestCase):

    def test_the_dataplane_is_off_and_neutron_server_stays(self):
        said = []
        localrc, services = node_limits.apply(
            {'VIRT_DRIVER': 'fake'}, OVN_SERVICES, said.append)
        self.assertEqual(
            {'q-svc', 'g-api', 'n-cpu'},
            {name for name, on in services.items() if on})
        for key, value in node_limits.NEUTRON_WITHOUT_DATAPLANE.items():
            self.assertEqual(value, localrc[key])
        self.assertTrue(OVN_SERVICES['ovn-northd'], 'the job is unchanged')
        self.assertEqual(3, len(said), said)
        self.assertIn('DOWNLOAD_DEFAULT_IMAGES=False', said[2])
        for name in ('ovn-controller', 'ovn-northd', 'ovs-vswitchd',
                     'ovsdb-server', 'q-ovn-metadata-agent'):
            self.assertIn(name, said[0])
        self.assertIn('off on this node', said[0])

    def test_the_newer_agent_name_is_off_too(self):
        _, services = node_limits.apply(
            {}, {'neutron-api': True, 'q-ovn-agent': True}, [].append)
        self.assertEqual(False, services['q-ovn-agent'])

    def test_a_job_without_neutron_keeps_its_services(self):
        localrc, services = node_limits.apply(
            {}, {'placement-api': True, 'ovsdb-server': True}, [].append)
        self.assertEqual(True, services['ovsdb-server'])
        self.assertNotIn('Q_AGENT', localrc)


class TempestNetworksTest(testtools.TestCase):
    """Without a dataplane a project's network would give senlin's
    servers (whose profiles name none) ports no agent can bind."""

    JOB = {'test-config': {'$TEMPEST_CONFIG': {
        'conformance': {'anti_affinity_zone': 'conformance-zone'}}},
        'post-config': {'$NOVA_CONF': {'DEFAULT': {'debug': True}}}}

    def test_no_isolated_networks_with_neutron_and_said(self):
        said = []
        local_conf = node_limits.tempest_config(
            self.JOB, {'q-svc': True}, said.append)
        tempest = local_conf['test-config']['$TEMPEST_CONFIG']
        self.assertEqual(False, tempest['auth']['create_isolated_networks'])
        self.assertEqual({'anti_affinity_zone': 'conformance-zone'},
                         tempest['conformance'], 'the job\'s options stay')
        self.assertEqual(self.JOB['post-config'], local_conf['post-config'])
        self.assertNotIn('auth', self.JOB['test-config']['$TEMPEST_CONFIG'],
                         'the job is unchanged')
        self.assertEqual(1, len(said), said)
        self.assertIn('[auth] create_isolated_networks = False on this node '
                      '(the job has no value)', said[0])

    def test_a_job_that_set_it_already_is_not_told_again(self):
        job = {'test-config': {'$TEMPEST_CONFIG': {
            'auth': {'create_isolated_networks': False}}}}
        said = []
        self.assertEqual(job, node_limits.tempest_config(
            job, {'neutron-api': True}, said.append))
        self.assertEqual([], said)

    def test_a_job_without_neutron_keeps_its_tempest_conf(self):
        said = []
        self.assertIs(self.JOB, node_limits.tempest_config(
            self.JOB, {'placement-api': True}, said.append))
        self.assertIsNone(node_limits.tempest_config(
            None, {'placement-api': True}, said.append))
        self.assertEqual([], said)


class ImageTest(testtools.TestCase):

    def test_a_fake_driver_job_gets_the_nodes_image(self):
        said = []
        localrc, _ = node_limits.apply(
            {'VIRT_DRIVER': 'fake', 'IMAGE_URLS': CIRROS},
            {'g-api': True}, said.append)
        self.assertEqual('file://' + node_limits.FAKE_IMAGE,
                         localrc['IMAGE_URLS'])
        self.assertIn('the job has %s' % CIRROS, ' '.join(said))

    def test_a_fake_driver_job_gets_no_default_image_either(self):
        # DevStack appends its cirros to IMAGE_URLS unless told not to;
        # 2026.1 stops stack.sh when that download fails.
        said = []
        localrc, _ = node_limits.apply({'VIRT_DRIVER': 'fake'},
                                       {'g-api': True}, said.append)
        self.assertIs(False, localrc['DOWNLOAD_DEFAULT_IMAGES'])
        self.assertIn("DOWNLOAD_DEFAULT_IMAGES=False on this node "
                      "(DevStack's default is True)", ' '.join(said))

    def test_a_real_driver_keeps_its_images(self):
        localrc, _ = node_limits.apply(
            {'VIRT_DRIVER': 'libvirt', 'IMAGE_URLS': CIRROS},
            {'g-api': True}, [].append)
        self.assertEqual(CIRROS, localrc['IMAGE_URLS'])
        self.assertNotIn('DOWNLOAD_DEFAULT_IMAGES', localrc)

    def test_the_image_is_a_readable_file_devstack_uploads(self):
        root = self.useFixture(fixtures.TempDir()).path
        path = node_limits.write_fake_image(root)
        self.assertEqual(root + node_limits.FAKE_IMAGE, path)
        self.assertTrue(path.endswith('.raw'), 'DevStack: disk_format raw')
        self.assertEqual(node_limits.FAKE_IMAGE_BYTES, os.path.getsize(path))
        self.assertEqual(0o644, os.stat(path).st_mode & 0o777)


class IscsidTest(testtools.TestCase):

    def test_iscsid_starts_only_with_an_iscsi_transport(self):
        root = self.useFixture(fixtures.TempDir()).path
        for path, text in node_limits.node_files().items():
            deploy._write(root, path, text)
        node_limits.write_fake_image(root)
        with open(root + node_limits.ISCSID_DROP_IN) as f:
            text = f.read()
        self.assertIn(
            '[Unit]\nConditionPathExists=/sys/module/scsi_transport_iscsi',
            text)
        self.assertTrue(os.path.exists(root + node_limits.FAKE_IMAGE))


class HypervisorTest(testtools.TestCase):
    """A job whose nova-compute runs libvirt gets the fake driver, and
    nova counts quota as it would under libvirt."""

    def test_libvirt_becomes_fake_with_the_nodes_image_and_said(self):
        for localrc, has in (({}, 'DevStack\'s default is libvirt'),
                             ({'VIRT_DRIVER': 'libvirt'},
                              'the job has libvirt')):
            said = []
            got, _ = node_limits.apply(localrc, {'n-cpu': True,
                                                 'g-api': True}, said.append)
            self.assertEqual(('fake', 'file://' + node_limits.FAKE_IMAGE),
                             (got['VIRT_DRIVER'], got['IMAGE_URLS']))
            line = [s for s in said if 'VIRT_DRIVER=fake' in s]
            self.assertEqual(1, len(line), said)
            self.assertIn(has, line[0])
            self.assertIn('no /dev/kvm', line[0])

    def test_no_compute_or_a_fake_one_keeps_the_driver(self):
        for localrc, services in (({}, {'n-cpu': False}),
                                  ({'VIRT_DRIVER': 'fake'}, {'n-cpu': True})):
            said = []
            got, _ = node_limits.apply(localrc, services, said.append)
            self.assertEqual(localrc.get('VIRT_DRIVER'),
                             got.get('VIRT_DRIVER'))
            self.assertFalse([s for s in said if 'VIRT_DRIVER' in s])
            self.assertIs(None, node_limits.nova_config(
                None, localrc, services, said.append))

    def test_nova_counts_quota_where_the_node_chose_the_fake_driver(self):
        said = []
        job_conf = {'post-config': {'$NOVA_CONF': {
            'quota': {'count_usage_from_placement': True}}},
            'test-config': {'$TEMPEST_CONFIG': {'a': {'b': 1}}}}
        got = node_limits.nova_config(job_conf, {}, {'n-cpu': True},
                                      said.append)
        self.assertEqual({'count_usage_from_placement': True,
                          'driver': 'nova.quota.DbQuotaDriver'},
                         got['post-config']['$NOVA_CONF']['quota'])
        self.assertEqual(job_conf['test-config'], got['test-config'])
        self.assertNotIn('driver', job_conf['post-config']['$NOVA_CONF'][
            'quota'], 'the job is unchanged')
        self.assertEqual(1, len(said))
        self.assertIn('NoopQuotaDriver', said[0])

    def test_a_quota_driver_the_job_names_is_kept(self):
        job_conf = {'post-config': {'$NOVA_CONF': {
            'quota': {'driver': 'nova.quota.UnifiedLimitsDriver'}}}}
        self.assertIs(job_conf, node_limits.nova_config(
            job_conf, {}, {'n-cpu': True}, [].append))


class HeatTestConfigTest(testtools.TestCase):
    """heat's test-config on a node without initial networks."""

    HEAT = {'devstack_plugins': {'heat': 'https://opendev.org/openstack/heat'},
            'devstack_services': {'q-svc': True}}

    def test_heat_with_neutron_gets_the_router_plugin_and_said(self):
        said = []
        self.assertEqual(
            {node_limits.NODE_PLUGIN: node_limits.NODE_PLUGIN_URL},
            node_limits.heat_test_config(self.HEAT, said.append))
        self.assertIn('router1', said[0])
        self.assertIn(node_limits.HEAT_TEST_IMAGE, said[0])

    def test_no_heat_or_no_neutron_gets_nothing(self):
        said = []
        self.assertEqual({}, node_limits.heat_test_config(
            {'devstack_services': {'q-svc': True}}, said.append))
        self.assertEqual({}, node_limits.heat_test_config(
            dict(self.HEAT, devstack_services={'q-svc': False}),
            said.append))
        self.assertEqual([], said)

    def test_the_plugin_makes_router1_in_the_extra_phase_only(self):
        path = os.path.join(sources.STANDIN_PROJECTS[node_limits.NODE_PLUGIN],
                            'devstack', 'plugin.sh')
        with open(path) as f:
            text = f.read()
        self.assertIn('"$2" == "extra"', text)
        self.assertIn('router create "$Q_ROUTER_NAME"', text)
        self.assertEqual(0, subprocess.run(['bash', '-n', path]).returncode)

    def test_the_image_is_the_qcow2_qemu_img_writes(self):
        root = self.useFixture(fixtures.TempDir()).path
        path = node_limits.write_heat_test_image(root)
        self.assertEqual(root + node_limits.HEAT_TEST_IMAGE, path)
        with open(path, 'rb') as f:
            data = f.read()
        # qemu-img create -f qcow2 -o compat=0.10 x 1M: its header ...
        self.assertEqual(b'QFI\xfb\0\0\0\x02', data[:8])
        self.assertEqual(3 * 65536 + 8, len(data))
        # ... and the format glance's inspector detects on upload
        from oslo_utils.imageutils import format_inspector
        self.assertEqual('qcow2', str(
            format_inspector.detect_file_format(path)))
        qemu_img = shutil.which('qemu-img')
        if qemu_img:
            check = subprocess.run([qemu_img, 'check', path],
                                   capture_output=True, text=True)
            self.assertEqual(0, check.returncode, check.stdout)
