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

"""What Zuul hands a job's playbooks, written for ansible-playbook on the
node: the inventory (the node, its groups, nodepool's facts) and the
variables (the job's merged vars, and the ``zuul`` dictionary the
playbooks and DevStack's roles read).

Only the keys the playbooks of our jobs, DevStack's roles and Tempest's
roles read are given (zuul.project, zuul.projects, zuul.job, zuul.branch,
zuul.executor.*): a playbook that reads another one fails naming it, as
it would under a Zuul that lacks it.
"""

import json
import os

from conformance_tests.devstack import container

#: Where Zuul's executor keeps the job's logs: the node's copy of it.
EXECUTOR_ROOT = '/home/zuul/executor'
#: The key the node's "executor" logs in with (the node's own zuul user).
SSH_KEY = '/home/zuul/.ssh/conformance-executor'
#: Where the job's playbooks stage what the executor collects.
STAGE_DIR = '/home/zuul'


def projects(required, src_root_in_node, branch, own_project):
    """zuul.projects: every repository the job has on the node."""
    found = {}
    for canonical in required:
        host, _, name = canonical.partition('/')
        found[canonical] = {
            'canonical_hostname': host,
            'canonical_name': canonical,
            'name': name,
            'short_name': name.rsplit('/', 1)[-1],
            'src_dir': os.path.join(src_root_in_node, canonical),
            'checkout': branch,
            'required': canonical != own_project,
        }
    return found


def zuul_dict(job, required, own_project, src_root_in_node='src'):
    """The ``zuul`` variable for ``job`` (a zuul_jobs.ResolvedJob)."""
    every = projects(required, src_root_in_node, job.branch, own_project)
    return {
        'job': job.name,
        'branch': job.branch,
        'pipeline': 'check',
        'tenant': 'openstack',
        'project': every[own_project],
        'projects': every,
        'executor': {
            'log_root': os.path.join(EXECUTOR_ROOT, 'logs'),
            'work_root': os.path.join(EXECUTOR_ROOT, 'work'),
            'src_root': os.path.join(EXECUTOR_ROOT, 'work', 'src'),
        },
        'change_url': 'file://%s' % own_project,
        'build': 'conformance-devstack',
        'ref': 'refs/heads/%s' % job.branch,
    }


def inventory(groups, node_vars):
    """A one-node inventory; ``groups`` are the nodeset's group names."""
    # ssh, not Ansible's local connection: a local one runs each module
    # in the playbook's directory, where a node's modules run in the
    # user's home (DevStack's roles name src/... relative to it).
    host = {
        'ansible_connection': 'ssh',
        'ansible_host': container.NODE_IP,
        'ansible_user': 'zuul',
        'ansible_ssh_private_key_file': SSH_KEY,
        'ansible_ssh_common_args': '-o StrictHostKeyChecking=no '
                                   '-o UserKnownHostsFile=/dev/null',
        'ansible_python_interpreter': '/usr/bin/python3',
        # The roles default it to ansible_user_dir, which a play that
        # gathers its facts with become reads as /root.
        'stage_dir': STAGE_DIR,
        'nodepool': {
            'private_ipv4': container.NODE_IP,
            'public_ipv4': container.NODE_IP,
            'label': 'debian-%s' % container.SUITE,
            'provider': 'conformance-devstack',
            'region': 'local',
            'interface_ip': container.NODE_IP,
        },
    }
    host.update(node_vars)
    children = {name: {'hosts': {container.HOSTNAME: {}}}
                for name in groups}
    return {'all': {'hosts': {container.HOSTNAME: host},
                    'children': children}}


def write(path, data):
    """JSON is YAML, so ansible-playbook reads both files as they are."""
    with open(path, 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.chmod(path, 0o600)
