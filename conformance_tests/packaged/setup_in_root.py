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

"""What the deployer makes through the APIs, inside the packaged cloud's
root with the root's own openstacksdk (Debian's):

    python3 setup_in_root.py identity < plan.json    after keystone
    python3 setup_in_root.py network < plan.json     after neutron-server
    python3 setup_in_root.py resources < plan.json   flavors and images

The plan (JSON on stdin, never on a command line: it holds passwords)
names the admin's credentials and, for ``identity``, the service users,
the catalog and the member accounts; for ``resources``, the flavors and
images, whose ids go to RESULT (tempest.conf names them).

Each service user gets the admin and service roles in the service
project, as DevStack gives them; each member account a project of its
own with the member role, so no two accounts share a project (a quota
test counts its project's servers). Prints one line per thing made,
never a password.

This file runs under the root's Python (3.13, Debian's libraries), not
the suite's: it imports nothing of this package.
"""

import json
import os
import sys
import time

import openstack


RESULT = '/var/lib/conformance/resources.json'


def connect(plan):
    return openstack.connect(
        auth_url=plan['auth_url'], username=plan['admin']['username'],
        password=plan['admin']['password'], project_name='admin',
        user_domain_name='Default', project_domain_name='Default',
        region_name=plan['region'], identity_api_version='3')


def identity(conn, plan):
    ident = conn.identity
    domain = ident.find_domain('default')
    roles = {r.name: r for r in ident.roles()}
    for name in ('service', 'member', 'reader'):
        if name not in roles:
            roles[name] = ident.create_role(name=name)
    service_project = ident.create_project(name='service',
                                           domain_id=domain.id)
    for user, password in sorted(plan['service_users'].items()):
        made = ident.create_user(name=user, password=password,
                                 domain_id=domain.id,
                                 default_project_id=service_project.id)
        for role in ('admin', 'service'):
            ident.assign_project_role_to_user(service_project, made,
                                              roles[role])
        print('service user %s' % user)
    for entry in plan['catalog']:
        service = ident.create_service(name=entry['name'],
                                       type=entry['type'])
        for interface in ('public', 'internal', 'admin'):
            ident.create_endpoint(service_id=service.id,
                                  interface=interface, url=entry['url'],
                                  region_id=plan['region'])
        print('catalog %s (%s)' % (entry['name'], entry['type']))
    for account in plan['members']:
        project = ident.create_project(name=account['project_name'],
                                       domain_id=domain.id)
        user = ident.create_user(name=account['username'],
                                 password=account['password'],
                                 domain_id=domain.id,
                                 default_project_id=project.id)
        ident.assign_project_role_to_user(project, user, roles['member'])
        print('member account %s' % account['username'])


NETWORK_READY_SECONDS = 60


def network(conn, plan):
    """Until neutron answers a port list.

    neutron 26 reads ``Port.port_forwardings`` in ``get_ports`` before
    its query runs; SQLAlchemy makes that backref only when the first
    query of the process configures the mappers. A port list that is
    the server's first request therefore answers 500 (and nova's server
    show with it): seen once in seven runs. A network list configures
    the mappers; the port list then proves it.
    """
    deadline = time.monotonic() + NETWORK_READY_SECONDS
    while True:
        try:
            list(conn.network.networks())
            list(conn.network.ports())
        except openstack.exceptions.HttpException as error:
            if time.monotonic() > deadline:
                raise SystemExit('neutron does not answer a port list '
                                 'after %d s: %s' % (NETWORK_READY_SECONDS,
                                                     error))
            time.sleep(2)
            continue
        print('neutron answers network and port lists')
        return


def resources(conn, plan):
    made = {'flavors': [], 'images': []}
    for number, (name, ram, vcpus, disk) in enumerate(plan['flavors'], 1):
        # ids 1, 2 ...: what nova's default flavors were, and DevStack's
        flavor = conn.compute.create_flavor(
            id=str(number), name=name, ram=ram, vcpus=vcpus, disk=disk)
        made['flavors'].append(flavor.id)
        print('flavor %s (%d MB, %d vCPU, %d GB)' % (name, ram, vcpus, disk))
    for name in plan['images']:
        # nova's fake driver never reads an image's bytes
        image = conn.image.create_image(
            name=name, data=b'conformance' * 100, disk_format='raw',
            container_format='bare', visibility='public')
        conn.image.wait_for_status(image, 'active', wait=120)
        made['images'].append(image.id)
        print('image %s' % name)
    os.makedirs(os.path.dirname(RESULT), exist_ok=True)
    with open(RESULT, 'w') as f:
        json.dump(made, f)


def main():
    phase = sys.argv[1]
    plan = json.load(sys.stdin)
    {'identity': identity, 'network': network,
     'resources': resources}[phase](
        connect(plan), plan)


if __name__ == '__main__':
    main()
