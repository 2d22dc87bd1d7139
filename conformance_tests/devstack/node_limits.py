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
  Every seed boots its servers with ``"networks": "none"``, so no port
  is ever bound and no test depends on a dataplane.
- iSCSI: DevStack restarts iscsid for nova-compute whatever the
  driver, and iscsid exits when the kernel has no iSCSI transport
  (``can not create NETLINK_ISCSI socket``); whether systemd saw it
  start first is a race, so stack.sh passed once and failed once here.
  A drop-in starts iscsid only where the kernel has that transport
  (``ConditionPathExists=/sys/module/scsi_transport_iscsi``): a
  condition that does not hold skips the unit, and ``systemctl
  restart`` succeeds, as on a host without iSCSI. Nothing of DevStack
  or open-iscsi changes; a gate VM has the module and starts it.
- The image: DevStack downloads its default image (cirros) from
  download.cirros-cloud.net or GitHub, which this machine cannot reach.
  Nova's fake driver never reads an image, so a job with
  ``VIRT_DRIVER=fake`` gets a small raw file the node holds instead, and
  ``DOWNLOAD_DEFAULT_IMAGES=False``: DevStack appends its cirros to
  ``IMAGE_URLS`` otherwise, and from 2026.1 a download that fails stops
  stack.sh (older branches carry on without the image).
"""

import os

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
DEVSTACK_DEFAULTS = {'DOWNLOAD_DEFAULT_IMAGES': True}


def apply(localrc, services, say):
    """(localrc, services) of the job with this node's limits over them;
    each change said. Neither argument is changed."""
    localrc, services = dict(localrc), dict(services)
    changes = dict(KERNEL)
    why = {key: 'a container shares the machine\'s kernel'
           for key in KERNEL}
    if any(services.get(name) for name in NEUTRON_SERVER):
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
    if localrc.get('VIRT_DRIVER') == 'fake' and services.get('g-api'):
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
    path = root + FAKE_IMAGE
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.truncate(FAKE_IMAGE_BYTES)
    os.chmod(path, 0o644)
    return path
