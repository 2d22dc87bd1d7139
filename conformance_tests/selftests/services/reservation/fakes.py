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

"""A libvirt-like cloud for the seed-004 self-tests: every hypervisor
hostname is an FQDN (pool1.example.org) while the nova service host is
the short name (pool1), and a fake blazar host API that resolves a name
as blazar 18 does (nova's hypervisor search, a pattern)."""

import itertools

from tempest.lib import exceptions as lib_exc

DOMAIN = '.example.org'


def hypervisor(host):
    return {'service': {'host': host}, 'hypervisor_hostname': host + DOMAIN}


HYPERVISORS = [hypervisor(h) for h in ('host1', 'host2', 'pool1', 'pool2')]


class FakeHosts(object):
    """blazar's /os-hosts over HYPERVISORS: POST resolves ``name`` with
    nova's hypervisor search (a substring, so a short service host name
    would find the FQDN: the log shows what was sent), 404 for none, 409
    for a host already enrolled; records carry hypervisor_hostname,
    service_name and the extra capabilities sent."""

    def __init__(self, enrolled=(), hypervisors=HYPERVISORS):
        self.hypervisors = hypervisors
        self.ids = (str(i) for i in itertools.count(1))
        self.records, self.log = [], []
        for name, extra in enrolled:
            self._add(name, extra)

    def _add(self, name, extra):
        found = [h for h in self.hypervisors
                 if name in h['hypervisor_hostname']]
        if not found:
            raise lib_exc.NotFound()
        if len(found) > 1:
            raise lib_exc.Conflict()
        hyp = found[0]
        if any(r['hypervisor_hostname'] == hyp['hypervisor_hostname']
               for r in self.records):
            raise lib_exc.Conflict()
        record = dict(extra, id=next(self.ids),
                      hypervisor_hostname=hyp['hypervisor_hostname'],
                      service_name=hyp['service']['host'])
        self.records.append(record)
        return record

    def list_hosts(self):
        self.log.append(('GET',))
        return {'hosts': [dict(r) for r in self.records]}

    def create_host(self, name, **extra):
        self.log.append(('POST', name))
        return {'host': self._add(name, extra)}

    def delete_host(self, host_id):
        self.log.append(('DELETE', host_id))
        before = len(self.records)
        self.records = [r for r in self.records if r['id'] != host_id]
        if len(self.records) == before:
            raise lib_exc.NotFound()

    def names(self):
        return sorted(r['hypervisor_hostname'] for r in self.records)
