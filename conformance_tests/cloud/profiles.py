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

"""Run profiles: how the embedded cloud is configured for one run.

`default` is the cloud the specs describe. `legacy-quota` is nova with
[quota] count_usage_from_placement = False, kept as a contrast: seed 001
says usage must survive a cell outage, and in this mode it does not, so
its cell-outage capability is expected to fail there (guidelines say so
with an `expect: {legacy-quota: ...}` entry and its signature).
`spec-reference` is the default cloud with every spec reference applied
(cloud/mutants.py: `reference`): the small patches of upstream that do what
a spec says where upstream does not. There every capability must pass,
including those that are expected-fail on upstream.
`vendor-like` is the default cloud dressed as a vendor's, so the suite's
assumptions about a cloud it did not make are tried at home: every API
under a DevStack path prefix on one port (`/identity`, `/compute/v2.1`,
...: cloud/front_door.py), a region other than RegionOne, and hypervisor
hostnames that are FQDNs unlike their nova service hosts (`host1` runs
hypervisor `host1.vendor.example`), as libvirt reports them; and computes
of a real host's size (REAL_HOST_SIZE), whose fill a project's default
quota cannot hold. It expects what the default profile expects.
`vendor-like-tls` is `vendor-like` over HTTPS, as DevStack's Zuul jobs
(`tls-proxy: true`) and most vendors serve their APIs: the front door
speaks TLS with a private CA made for each cloud start (cloud/tls.py),
the catalog's endpoints are https, tempest.conf's [identity]
ca_certificates_file and clouds.yaml's cacert name the CA bundle, and
each service's own clients (keystonemiddleware, nova's placement and
glance clients, blazar's and senlin's) trust it through their cafile
options. It expects what the default profile expects.
`unified-limits` is the default cloud with nova counting quota with
keystone's unified limits ([quota] driver = nova.quota.UnifiedLimitsDriver,
the registered limits made at `up`): the one quota that counts disk, for
seed 004's "count toward ... disk".
"""

# A real compute host, as placement sees it: nova's FakeDriver's 800000 MB
# of RAM, with tens of vCPUs and a few hundred GB of disk (nova's
# MediumFakeDriver, the default profile's, has 8192 MB, below nova's
# default RAM quota of 51200 MB).
REAL_HOST_SIZE = {'vcpus': 48, 'memory_mb': 800000, 'local_gb': 500}

PROFILES = {
    'default': {'count_usage_from_placement': True},
    'legacy-quota': {'count_usage_from_placement': False},
    # two DRS hosts: "the first matching hypervisor" (seed 002's S3)
    'spec-reference': {'count_usage_from_placement': True,
                       'spec_reference': True, 'drs_hypervisors': 2},
    'vendor-like': {'count_usage_from_placement': True,
                    'front_door': True,
                    'region': 'VendorRegion-1',
                    'hypervisor_domain': 'vendor.example',
                    'host_size': REAL_HOST_SIZE},
}
PROFILES['vendor-like-tls'] = dict(PROFILES['vendor-like'], tls=True)
# Nova's quota from keystone's unified limits: seed 004's disk quota,
# which nova's legacy quota does not count.
PROFILES['unified-limits'] = dict(PROFILES['default'], unified_limits=True)
PROFILES['no-drs-hypervisor'] = dict(PROFILES['default'],
                                     drs_hypervisor=False)
PROFILES['spec-reference-no-drs-hypervisor'] = dict(
    PROFILES['spec-reference'], drs_hypervisor=False)
DEFAULT = 'default'


def names():
    return sorted(PROFILES)


def settings(name):
    return PROFILES[name]


def is_spec_reference(name):
    """Whether profile ``name`` applies the spec references, where every
    capability is expected to pass unless its guideline says otherwise
    (an unknown name: no)."""
    return bool(PROFILES.get(name, {}).get('spec_reference'))
