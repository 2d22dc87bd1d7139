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

"""What the packaged cloud is: its ports, hosts, cells and zones.

Six computes on nova's fake driver (fake.FakeDriver: 800000 MB of RAM and
1000 vCPUs a host, the size of a vendor's host, not of a test VM) in two
cells. The zones are the Zuul jobs' (their setup playbooks make them):
the anti-affinity zone holds three hosts of cell1; cell2's one host has
the zone the cell-outage scenarios use; the two left, in cell1, are
blazar's freepool (the blazar playbook takes the last two hosts by
name). Every service listens on 127.0.0.1, from ``--port-base`` on.
"""

REGION = 'RegionOne'
CELLS = ('cell1', 'cell2')
COMPUTES = (('compute1', 'cell1'), ('compute2', 'cell1'),
            ('compute3', 'cell1'), ('compute4', 'cell2'),
            ('compute5', 'cell1'), ('compute6', 'cell1'))
ZONE = 'conformance-zone'
ZONE_HOSTS = ('compute1', 'compute2', 'compute3')
DOWN_CELL = 'cell2'
DOWN_CELL_ZONE = 'conformance-cell2'
FREEPOOL = 'freepool'
FREEPOOL_HOSTS = ('compute5', 'compute6')
#: Where the cells playbook installs the Zuul job's fault script.
FAULT_DIR = '/usr/local/lib/conformance-faults'
DEFAULT_PORT_BASE = 19500
#: Offsets from the port base. RabbitMQ's epmd and distribution ports
#: are its own, so the cloud shares no port with another on the machine.
PORTS = {'mysql': 0, 'amqp': 1, 'epmd': 2, 'rabbit_dist': 3,
         'keystone': 10, 'placement': 11, 'nova': 12, 'glance': 13,
         'neutron': 14, 'blazar': 15, 'cell_db_forward': 20}
#: The versions Debian 13 ships (FACTS.md), read back by `status`.
RELEASE = '2025.1'
#: The deployment's name: its cache directory, and the key of its
#: guideline entries (``by_deployment``, report/deployment.py).
NAME = 'debian13-' + RELEASE
SERVICE_USERS = ('nova', 'placement', 'glance', 'neutron', 'blazar')
#: Nova's default flavors are gone since nova 24: the deployment makes
#: these two, as DevStack does.
FLAVORS = (('conformance.tiny', 512, 1, 1), ('conformance.small', 2048, 1, 5))


class Ports(object):
    def __init__(self, base=DEFAULT_PORT_BASE):
        self.base = base

    def __getattr__(self, name):
        try:
            return self.base + PORTS[name]
        except KeyError:
            raise AttributeError(name)

    def all(self):
        return {name: self.base + offset for name, offset in PORTS.items()}

    def url(self, name, path=''):
        return 'http://127.0.0.1:%d%s' % (getattr(self, name), path)
