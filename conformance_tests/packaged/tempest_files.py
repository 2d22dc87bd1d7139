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

"""The tempest.conf a vendor would write for the packaged cloud, and its
member-only twin with Tempest's pre-provisioned accounts (both 0600).

Everything here is what the cloud is (its endpoints, microversions,
flavors, images, zones, the Zuul fault script) and what a vendor's
tempest.conf says; nothing is the embedded cloud's. The fault commands
run the script the cells playbook installed, inside the root, as root:
the suite runs as root on this machine, as Tempest's user runs it with
sudo on DevStack.
"""

import configparser
import json
import os

from conformance_tests.cloud import secrets as secret_files
from conformance_tests.packaged import configs
from conformance_tests.packaged import layout
from conformance_tests.packaged import playbooks
from conformance_tests.tools import vendor_proof

RESOURCE_PREFIX = 'conformance'


def admin_conf(cloud, resources):
    p = cloud.ports
    admin = cloud.secrets['admin']
    fault = 'chroot %s %s/cell-db-fault.sh %%s {cell}' % (
        cloud.root, layout.FAULT_DIR)
    flavors, images = resources['flavors'], resources['images']
    return {
        'DEFAULT': {'log_dir': os.path.join(cloud.statedir, 'tempest-logs'),
                    'log_file': 'tempest.log', 'use_stderr': 'false',
                    'resource_name_prefix': RESOURCE_PREFIX},
        'auth': {'use_dynamic_credentials': 'true',
                 'create_isolated_networks': 'false',
                 'admin_username': admin['username'],
                 'admin_password': admin['password'],
                 'admin_project_name': 'admin',
                 'admin_domain_name': configs.DOMAIN},
        'identity': {'uri_v3': configs.identity_uri(p),
                     'auth_version': 'v3', 'region': layout.REGION},
        'identity-feature-enabled': {'api_v2': 'false'},
        'service_available': {
            'nova': 'true', 'placement': 'true', 'glance': 'true',
            'neutron': 'true', 'blazar': 'true', 'senlin': 'false',
            'cinder': 'false', 'swift': 'false', 'horizon': 'false'},
        'compute': {'min_microversion': '2.1', 'max_microversion': 'latest',
                    'flavor_ref': flavors[0], 'flavor_ref_alt': flavors[1],
                    'image_ref': images[0], 'image_ref_alt': images[1],
                    'min_compute_nodes': str(len(layout.ZONE_HOSTS)),
                    'region': layout.REGION, 'build_interval': '1',
                    'build_timeout': '120'},
        'compute-feature-enabled': {
            'scheduler_enabled_filters': ','.join(
                configs.SCHEDULER_FILTERS)},
        'placement': {'min_microversion': '1.0',
                      'max_microversion': 'latest'},
        'image': {'region': layout.REGION},
        'image-feature-enabled': {'api_v2': 'true'},
        'network': {'region': layout.REGION},
        'validation': {'run_validation': 'false'},
        'oslo_concurrency': {'lock_path': os.path.join(cloud.statedir,
                                                       'tempest-lock')},
        'conformance': {
            'resource_prefix': RESOURCE_PREFIX,
            'allow_disruption': 'true',
            'anti_affinity_zone': layout.ZONE,
            'anti_affinity_zone_hosts': str(len(layout.ZONE_HOSTS)),
            'quota_usage_from_placement': 'true',
            'cell_down_name': layout.DOWN_CELL,
            'cell_down_zone': layout.DOWN_CELL_ZONE,
            'fault_cell_down_command': fault % 'down',
            'fault_cell_up_command': fault % 'up',
            # the hosts blazar's playbook chose and enrolled
            'preemptible_hosts': playbooks.preemptible_hosts(cloud),
            'blazar_freepool': layout.FREEPOOL,
        },
    }


def write(cloud):
    with open(cloud.host_path('/var/lib/conformance/resources.json')) as f:
        resources = json.load(f)
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read_dict(admin_conf(cloud, resources))
    for path in (os.path.join(cloud.statedir, 'tempest-logs'),
                 os.path.join(cloud.statedir, 'tempest-lock')):
        os.makedirs(path, exist_ok=True)
    with secret_files.private_open(cloud.tempest_conf) as f:
        parser.write(f)
    accounts = [{'username': m['username'], 'password': m['password'],
                 'project_name': m['project_name'],
                 'domain_name': configs.DOMAIN, 'roles': ['member']}
                for m in cloud.secrets['members']]
    member_dir = os.path.dirname(cloud.member_conf)
    written = vendor_proof.member_conf(cloud.tempest_conf, accounts,
                                       member_dir)
    assert written == cloud.member_conf, written
