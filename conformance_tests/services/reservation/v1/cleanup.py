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

"""Blazar: the run's leases and the hosts the suite enrolled.

Leases go first: ending one gives its hosts back to the freepool (and
blazar refuses to remove a host a lease still holds). Hosts are removed
from blazar only when the suite enrolled them: the seed-004 tests mark
their enrolments with the extra capability ENROLLED_BY (``<resource
prefix>_enrolled``); hosts an operator enrolled are never touched.
"""

from conformance_tests.cleanup import kinds
from conformance_tests.common import waiters

ENROLLED_SUFFIX = '_enrolled'


def enrolled_marker(prefix):
    """The extra capability a suite enrolment carries (blazar stores any
    unknown key of POST /os-hosts as one)."""
    return prefix + ENROLLED_SUFFIX


class Leases(kinds.Kind):
    singular, plural = 'lease', 'leases'

    def find(self, ctx):
        return [kinds.Item(lease['id'], '%s (%s)' % (
            lease['name'], lease['id']), lease)
            for lease in ctx.leases_client.list_leases()['leases']
            if ctx.names.made(lease['name'])]

    def remove_one(self, ctx, item):
        # A run killed while blazar started a lease leaves it STARTING,
        # which blazar will not delete until the start is over.
        waiters.wait_for_lease_settled(ctx.leases_client, item.id)
        ctx.leases_client.delete_lease(item.id)


class Hosts(kinds.Kind):
    singular, plural = 'blazar host enrolment', 'blazar host enrolments'

    def find(self, ctx):
        marker = ctx.enrolled_marker
        return [kinds.Item(host['id'], '%s (%s)' % (
            host.get('hypervisor_hostname'), host['id']), host)
            for host in ctx.hosts_client.list_hosts()['hosts']
            if str(host.get(marker, '')).lower() == 'true']

    def remove_one(self, ctx, item):
        ctx.hosts_client.delete_host(item.id)
