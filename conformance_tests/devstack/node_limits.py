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

"""What a container node on this machine cannot do that a gate VM does,
and what the job's DevStack is told instead. Each change is said when a
run starts and lands in the job's local.conf, nowhere else: DevStack,
the services and the job's definition in zuul.d/ are not touched.

- The kernel: a node shares the machine's kernel, whose module
  parameters (/sys/module/zswap) and memory and network-core sysctls
  (vm.*, net.core.default_qdisc) it cannot write. DevStack master skips
  such a write with a warning; its stable branches stop stack.sh on it.
  (KSM has no switch that skips the write: container.py hides
  /sys/kernel/mm/ksm from the node instead.)
- Neutron's dataplane: OVN and Open vSwitch need the openvswitch kernel
  module, which a container cannot load (and this machine has no
  modules to load). neutron-server alone, ML2 with the openvswitch
  mechanism and no agent, answers what nova asks it (a server's ports
  on every show and delete); DevStack then installs and starts no OVS.
  Seeds 000, 001 and 004 boot their servers with ``"networks":
  "none"``. Senlin's profiles (seed 002) name no network, so nova gives
  each server every network its project has, and Tempest makes one per
  project (``[auth] create_isolated_networks``) whose port nothing here
  can bind (PortBindingFailed). The node's tempest.conf gets
  ``create_isolated_networks = False``: a project then has no network
  and nova builds its servers without a port, as with the embedded
  cloud's network stub.
- iSCSI: DevStack restarts iscsid for nova-compute whatever the
  driver, and iscsid exits when the kernel has no iSCSI transport
  (``can not create NETLINK_ISCSI socket``); whether systemd saw it
  start first is a race, so stack.sh passed once and failed once here.
  A drop-in starts iscsid only where the kernel has that transport
  (``ConditionPathExists=/sys/module/scsi_transport_iscsi``): a
  condition that does not hold skips the unit, and ``systemctl
  restart`` succeeds, as on a host without iSCSI. Nothing of DevStack
  or open-iscsi changes; a gate VM has the module and starts it.
- The hypervisor: a container has no /dev/kvm and cannot download a
  guest image, so a job whose nova-compute runs libvirt (DevStack's
  default) gets nova's fake driver (``VIRT_DRIVER=fake``), which builds
  servers without running them: what the suite asks of a server (its
  host, its state, its resources in placement and quota) is nova's,
  not the hypervisor's. DevStack's fake driver also sets ``[quota]
  driver = nova.quota.NoopQuotaDriver`` (every usage -1); where the node
  chose the driver, nova.conf gets nova's default DbQuotaDriver back,
  so quota counts as under the job's libvirt.
- The image: DevStack downloads its default image (cirros) from
  download.cirros-cloud.net or GitHub, which this machine cannot reach.
  Nova's fake driver never reads an image, so a job with
  ``VIRT_DRIVER=fake`` gets a small raw file the node holds instead, and
  ``DOWNLOAD_DEFAULT_IMAGES=False``: DevStack appends its cirros to
  ``IMAGE_URLS`` otherwise, and from 2026.1 a download that fails stops
  stack.sh (older branches carry on without the image).
"""

import os
import struct

#: localrc a container cannot do otherwise, whatever the job.
KERNEL = {'ENABLE_ZSWAP': False, 'ENABLE_SYSCTL_MEM_TUNING': False,
          'ENABLE_SYSCTL_NET_TUNING': False}

NEUTRON_SERVER = ('q-svc', 'neutron-api')
#: Every name DevStack's branches give a dataplane service: OVN and OVS
#: themselves, and the agents that need them.
DATAPLANE = ('ovn-controller', 'ovn-northd', 'ovs-vswitchd',
             'ovsdb-server', 'q-ovn-metadata-agent', 'q-ovn-agent',
             'q-agt', 'q-dhcp', 'q-l3', 'q-meta', 'q-metering',
             'neutron-agent', 'neutron-dhcp', 'neutron-l3',
             'neutron-metadata-agent', 'neutron-ovn-metadata-agent')
#: localrc for neutron-server without a dataplane: ML2/OVS (which starts
#: nothing without its agent) instead of ML2/OVN, and no initial
#: networks (their routers would need the L3 agent).
NEUTRON_WITHOUT_DATAPLANE = {
    'Q_AGENT': 'openvswitch',
    'Q_ML2_PLUGIN_MECHANISM_DRIVERS': 'openvswitch',
    'Q_ML2_TENANT_NETWORK_TYPE': 'vxlan',
    'NEUTRON_CREATE_INITIAL_NETWORKS': False,
}

#: The image a fake-driver job's glance gets (a ".raw" DevStack uploads
#: as disk_format raw, read in place from a file:// URL).
FAKE_IMAGE = '/var/lib/conformance-node/fake-disk.raw'
FAKE_IMAGE_BYTES = 1024 * 1024

#: DevStack's own value of a variable we change that a job may not set
#: (stackrc), so that a change from it is said too.
DEVSTACK_DEFAULTS = {'DOWNLOAD_DEFAULT_IMAGES': True,
                     'VIRT_DRIVER': 'libvirt'}
#: nova.conf where the node chose the fake driver (see above).
NOVA_QUOTA_DRIVER = {'quota': {'driver': 'nova.quota.DbQuotaDriver'}}


def node_chooses_fake_driver(localrc, services):
    """Whether the job runs a nova-compute whose driver is not fake."""
    return bool(services.get('n-cpu')) and localrc.get(
        'VIRT_DRIVER', DEVSTACK_DEFAULTS['VIRT_DRIVER']) != 'fake'


def runs_neutron_server(services):
    """Whether the job's services (DevStack's names) run neutron-server."""
    return any(services.get(name) for name in NEUTRON_SERVER)


def apply(localrc, services, say):
    """(localrc, services) of the job with this node's limits over them;
    each change said. Neither argument is changed."""
    localrc, services = dict(localrc), dict(services)
    changes = dict(KERNEL)
    why = {key: 'a container shares the machine\'s kernel'
           for key in KERNEL}
    if runs_neutron_server(services):
        off = [name for name in DATAPLANE if services.get(name)]
        services.update((name, False) for name in off)
        if off:
            say('devstack: services %s off on this node: neutron\'s '
                'dataplane needs the openvswitch kernel module'
                % ', '.join(sorted(off)))
        changes.update(NEUTRON_WITHOUT_DATAPLANE)
        say('devstack: neutron-server without a dataplane on this node: '
            '%s' % ' '.join('%s=%s' % item for item in sorted(
                NEUTRON_WITHOUT_DATAPLANE.items())))
        why.update((key, 'neutron-server without a dataplane')
                   for key in NEUTRON_WITHOUT_DATAPLANE)
    if node_chooses_fake_driver(localrc, services):
        changes['VIRT_DRIVER'] = 'fake'
        why['VIRT_DRIVER'] = ('a container has no /dev/kvm and cannot '
                              'download a guest image')
    if changes.get('VIRT_DRIVER', localrc.get('VIRT_DRIVER')) == 'fake' \
            and services.get('g-api'):
        changes['IMAGE_URLS'] = 'file://' + FAKE_IMAGE
        changes['DOWNLOAD_DEFAULT_IMAGES'] = False
        why['IMAGE_URLS'] = why['DOWNLOAD_DEFAULT_IMAGES'] = (
            'the node cannot download an image; nova\'s fake driver never '
            'reads one')
    for key, value in sorted(changes.items()):
        if key in localrc and localrc[key] != value:
            say('devstack: %s=%s on this node (the job has %s): %s' % (
                key, value, localrc[key], why[key]))
        elif key not in localrc and DEVSTACK_DEFAULTS.get(key, value) != value:
            say('devstack: %s=%s on this node (DevStack\'s default is %s): '
                '%s' % (key, value, DEVSTACK_DEFAULTS[key], why[key]))
        localrc[key] = value
    return localrc, services


#: tempest.conf for neutron-server without a dataplane (see above).
TEMPEST_WITHOUT_DATAPLANE = {'auth': {'create_isolated_networks': False}}


def tempest_config(local_conf, services, say):
    """The job's devstack_local_conf with this node's tempest.conf
    options in its test-config phase (where a job's own tempest.conf
    options go); said when it changes. The argument is not changed."""
    if not runs_neutron_server(services):
        return local_conf
    test_config = dict((local_conf or {}).get('test-config') or {})
    tempest = {section: dict(options) for section, options in (
        test_config.get('$TEMPEST_CONFIG') or {}).items()}
    for section, options in sorted(TEMPEST_WITHOUT_DATAPLANE.items()):
        for key, value in sorted(options.items()):
            job_value = tempest.get(section, {}).get(key)
            if job_value != value:
                say('devstack: tempest.conf [%s] %s = %s on this node (the '
                    'job has %s): a project\'s network would give its '
                    'servers ports that no agent here can bind' % (
                        section, key, value,
                        'no value' if job_value is None else job_value))
            tempest.setdefault(section, {})[key] = value
    test_config['$TEMPEST_CONFIG'] = tempest
    return dict(local_conf or {}, **{'test-config': test_config})


def nova_config(local_conf, localrc, services, say):
    """The job's devstack_local_conf with nova's default quota driver in
    nova.conf's post-config where the node chose the fake driver (whose
    DevStack plugin sets NoopQuotaDriver) and the job names no quota
    driver; said. The argument is not changed."""
    post_config = dict((local_conf or {}).get('post-config') or {})
    nova = {section: dict(options) for section, options in (
        post_config.get('$NOVA_CONF') or {}).items()}
    if not node_chooses_fake_driver(localrc, services) or \
            'driver' in nova.get('quota', {}):
        return local_conf
    for section, options in NOVA_QUOTA_DRIVER.items():
        for key, value in options.items():
            say('devstack: nova.conf [%s] %s = %s on this node: DevStack\'s '
                'fake virt driver sets NoopQuotaDriver, and the job\'s nova '
                'counts quota' % (section, key, value))
            nova.setdefault(section, {})[key] = value
    post_config['$NOVA_CONF'] = nova
    return dict(local_conf or {}, **{'post-config': post_config})


ISCSID_DROP_IN = '/etc/systemd/system/iscsid.service.d/conformance-node.conf'
ISCSID_CONDITION = ('# conformance devstack: a container node has no iSCSI '
                    'transport\n[Unit]\nConditionPathExists='
                    '/sys/module/scsi_transport_iscsi\n')


def node_files():
    """{path in the node: text} the limits above need before DevStack,
    besides the fake image (deploy writes them into the root)."""
    return {ISCSID_DROP_IN: ISCSID_CONDITION}


def write_fake_image(root):
    """The fake driver's image in the node's root (zeros: glance stores
    raw bytes as they are)."""
    return _write_image(root + FAKE_IMAGE, bytes(FAKE_IMAGE_BYTES))


def _write_image(path, data):
    """``data`` at ``path`` (in the node's root), readable by all."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)
    os.chmod(path, 0o644)
    return path


# -- heat's test-config -------------------------------------------------
# heat's DevStack plugin, in its test-config phase (tempest is on in every
# job), attaches a subnet to router1, which a container node's DevStack
# never makes (no initial networks above), and uploads a Fedora image it
# downloads unless the node's DevStack file cache already holds it, as a
# gate node's image cache may. The senlin jobs enable heat only so that
# senlin can preview a template; no test boots that image.

#: The stand-in DevStack plugin that makes router1 (standin_projects/).
NODE_PLUGIN = 'conformance-node'
#: Its URL in local.conf: DevStack never clones it, the node has it.
NODE_PLUGIN_URL = 'https://opendev.org/openstack/conformance-node'
#: DevStack's file cache on a gate node (devstack's setup-devstack-cache
#: role links its files/ into devstack/files before stack.sh), and the
#: image heat's lib/heat asks for, by the name it downloads it as.
HEAT_TEST_IMAGE = ('/opt/cache/files/'
                   'Fedora-Cloud-Base-37-1.7.x86_64.qcow2')


def heat_test_config(job_vars, say):
    """{plugin name: URL} to add to the job's devstack_plugins where
    heat's test-config needs what the node lacks (heat on, with a
    neutron-server and so no router1); each said."""
    services = job_vars.get('devstack_services') or {}
    if ('heat' not in (job_vars.get('devstack_plugins') or {}) or
            not runs_neutron_server(services)):
        return {}
    say('devstack: plugin %s on this node: heat\'s test-config attaches '
        'its subnet to router1, which a node without initial networks '
        'lacks; and %s in its file cache, the image heat\'s test-config '
        'would download (no test boots it)' % (NODE_PLUGIN, HEAT_TEST_IMAGE))
    return {NODE_PLUGIN: NODE_PLUGIN_URL}


def qcow2_image(size=1024 * 1024):
    """The bytes of an empty qcow2 (version 2, 64 KiB clusters) of
    ``size`` virtual bytes, as `qemu-img create -f qcow2 -o compat=0.10`
    writes one (byte for byte): header, refcount table, refcount block,
    L1 table. heat checks the format of its image with `qemu-img info`,
    and glance inspects it on upload."""
    cluster = 1 << 16
    l1_entries = -(-size // (cluster * (cluster // 8)))
    header = struct.pack(
        '>IIQIIQIIQQIIQ', 0x514649fb, 2, 0, 0, 16, size, 0, l1_entries,
        3 * cluster, cluster, 1, 0, 0)
    refcount_table = struct.pack('>Q', 2 * cluster)
    refcount_block = struct.pack('>4H', 1, 1, 1, 1)
    clusters = [header, refcount_table, refcount_block,
                b'\0' * (8 * l1_entries)]
    return b''.join([c.ljust(cluster, b'\0') for c in clusters[:-1]] +
                    clusters[-1:])


def write_heat_test_image(root):
    """heat's test image in the node's DevStack file cache."""
    return _write_image(root + HEAT_TEST_IMAGE, qcow2_image())
