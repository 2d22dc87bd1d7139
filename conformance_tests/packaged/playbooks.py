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

"""The Zuul jobs' setup playbooks, run for real on the packaged cloud.

The DevStack jobs prepare their cloud with playbooks/conformance-*-setup
.yaml (the cell outage's forwarder and fault script, the zones, blazar's
freepool and its enrolled hosts). The packaged cloud is prepared by the
same files: they are copied into its root with playbooks/files/ and run
there by Debian's ansible-playbook on localhost, with this deployment's
values for the variables whose defaults are DevStack's (its openrc, its
ini functions, its systemd units, its tempest.conf).

Order: cells first (its zone takes cell2's host), then the anti-affinity
zone (three hosts of cell1), then blazar (the last two hosts by name).
The cells playbook would restart nova through systemd; here it is given
a no-op, and nova's API, scheduler and conductors are restarted by pid
right after it (they cache cell mappings).
"""

import json
import os
import shutil

from conformance_tests.common import paths
from conformance_tests.packaged import layout

INSIDE = '/usr/local/lib/conformance'
OPENRC = '/root/conformance-openrc'
INI_CONFIG = INSIDE + '/ini-config'
#: What blazar's playbook writes, read back into tempest.conf.
TEMPEST_FRAGMENT = '/var/lib/conformance/tempest-fragment.conf'
ORDER = ('conformance-cells-setup.yaml', 'conformance-zone-setup.yaml',
         'conformance-blazar-setup.yaml')
# DevStack's inc/ini-config, as far as the playbooks use it.
INI_FUNCTIONS = '''# DevStack's iniget/iniset, on crudini
iniget() { crudini --get "$1" "$2" "$3"; }
iniset() { crudini --set "$1" "$2" "$3" "$4"; }
'''


def variables(cloud):
    return {
        'admin_openrc': 'source %s' % OPENRC,
        'ini_config': INI_CONFIG,
        'os_user': 'root',
        'nova_conf': '/etc/nova/nova.conf',
        'cell_conductor_conf': '/etc/nova/nova-%s.conf' % layout.DOWN_CELL,
        'cell_db_forward_port': cloud.ports.cell_db_forward,
        'nova_restart': 'true',
        'tempest_user': '',
        'zone_hosts': list(layout.ZONE_HOSTS),
        'tempest_conf': TEMPEST_FRAGMENT,
        'freepool': layout.FREEPOOL,
    }


def _openrc(cloud):
    admin = cloud.secrets['admin']
    lines = {
        'OS_AUTH_URL': cloud.admin_plan()['auth_url'],
        'OS_USERNAME': admin['username'], 'OS_PASSWORD': admin['password'],
        'OS_PROJECT_NAME': 'admin', 'OS_USER_DOMAIN_NAME': 'Default',
        'OS_PROJECT_DOMAIN_NAME': 'Default', 'OS_IDENTITY_API_VERSION': '3',
        'OS_REGION_NAME': layout.REGION}
    return ''.join("export %s='%s'\n" % item for item in lines.items())


def _install(cloud):
    from conformance_tests.cloud import secrets as secret_files
    target = cloud.host_path(INSIDE + '/playbooks')
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(paths.data_path('playbooks'), target)
    with open(cloud.host_path(INI_CONFIG), 'w') as f:
        f.write(INI_FUNCTIONS)
    with secret_files.private_open(cloud.host_path(OPENRC)) as f:
        f.write(_openrc(cloud))
    fragment = cloud.host_path(TEMPEST_FRAGMENT)
    os.makedirs(os.path.dirname(fragment), exist_ok=True)
    open(fragment, 'w').close()
    with open(cloud.host_path(INSIDE + '/inventory'), 'w') as f:
        f.write('controller ansible_connection=local '
                'ansible_python_interpreter=/usr/bin/python3\n')
    with open(cloud.host_path(INSIDE + '/vars.json'), 'w') as f:
        json.dump(variables(cloud), f)


def run_all(cloud):
    _install(cloud)
    for name in ORDER:
        cloud.say('packaged: Zuul setup playbook %s' % name)
        cloud.run(['ansible-playbook', '-i', INSIDE + '/inventory',
                   '-e', '@' + INSIDE + '/vars.json',
                   INSIDE + '/playbooks/' + name],
                  'ansible-playbook %s' % name,
                  env={'ANSIBLE_LOCAL_TEMP': '/tmp/ansible-local',
                       'ANSIBLE_NOCOLOR': '1'})
        if name == 'conformance-cells-setup.yaml':
            cloud.say('packaged: restarting nova\'s API, scheduler and '
                      'conductors (they cache cell mappings)')
            cloud.restart_nova_services()


def preemptible_hosts(cloud):
    """What blazar's playbook wrote as [conformance] preemptible_hosts."""
    import configparser
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(cloud.host_path(TEMPEST_FRAGMENT))
    return parser.get('conformance', 'preemptible_hosts')
