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

"""Seed 001 companion: what nova shows of servers in a down cell (2.69).

From compute 2.69 nova answers with partial records for servers and
services it cannot read while their cell is down, instead of leaving them
out (lists) or failing (show). Below 2.69 the old behaviour stays: lists
skip them and a show is a 500. At 2.69 too, a list with filters, sorting
or paging skips them.
"""

import datetime

from tempest import config
from tempest.lib import decorators

from conformance_tests.common import faults
from conformance_tests.common import waiters
from conformance_tests.scenario import base

CONF = config.CONF
PARTIAL = '2.69'
BEFORE = '2.68'
LIST_KEYS = {'id', 'status', 'links'}
DETAIL_KEYS = LIST_KEYS | {'tenant_id', 'created'}
SHOW_KEYS = DETAIL_KEYS | {'image', 'flavor', 'user_id',
                           'OS-EXT-AZ:availability_zone',
                           'OS-EXT-STS:power_state'}


def _timestamp(text, rule):
    try:
        return datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
    except (AttributeError, ValueError):
        raise AssertionError('%s: created %r is not an ISO 8601 time' % (
            rule, text))


def _shape(entry):
    """What a listing entry says of a server beyond its timestamps: None
    when it is left out, else its keys and status."""
    return None if entry is None else (frozenset(entry), entry.get('status'))


@decorators.serial
class DownCellViewsTest(base.ComputeScenarioTest):
    """Disruptive: takes [conformance] cell_down_name down, always back.

    @serial: no other test class runs while the cell is down.
    """

    needs_admin = ('GET /os-services (a down cell\'s computes) and GET '
                   '/os-availability-zone/detail (the hosts of '
                   'cell_down_zone)')
    # Both are sent: the boundary is the rule.
    min_microversion = BEFORE
    max_microversion = PARTIAL

    def _entry(self, url, server_id, microversion):
        found = [s for s in self.raw.get(url, microversion)['servers']
                 if s['id'] == server_id]
        return found[0] if found else None

    @decorators.idempotent_id('8d0f2b4c-6e5a-4f7b-8c9d-2d3e4f5a6b71')
    @decorators.attr(type=['disruptive'])
    def test_partial_records_while_the_cell_is_down(self):
        cell = CONF.conformance.cell_down_name
        zone = CONF.conformance.cell_down_zone
        hosts = self.zone_hosts(zone)
        self.assertNotEqual([], hosts, '[conformance] cell_down_zone %s has '
                            'no available host' % zone)
        name = self.name('down-cell')
        server_id = self.boot_accepted(
            'a boot into zone %s (cell %s, before it goes down) is accepted'
            % (zone, cell), zone=zone, name=name)
        self.assertEqual('ACTIVE', self.settle(server_id)['status'])
        self.wait_until_built(server_id, PARTIAL)
        before = self.raw.get('/servers/%s' % server_id, PARTIAL)['server']
        # The control: with its cell up the server is listed in full.
        listed = self._entry('/servers/detail', server_id, PARTIAL)
        self.assertEqual('ACTIVE', (listed or {}).get('status'),
                         'at %s GET /servers/detail lists server %s in full '
                         'while its cell is up' % (PARTIAL, server_id))

        # The back end's confirmation that the cell's database is
        # unreachable says the view is due. Nova may still hold a
        # connection for a while, so the views are read once its answer
        # for the server changes shape (left out, other keys, other
        # status: not a timestamp), within the build timeout; the rules
        # below then judge what it changed to. Waiting for the rule itself
        # (UNKNOWN) would hold a nova that breaks it for the whole timeout
        # before the same assertion failed.
        fault, cell = faults.take_cell_down(self, CONF)
        waiters.observe(lambda: _shape(self._entry(
            '/servers/detail', server_id, PARTIAL)) != _shape(listed))
        rule = ('at %s, with cell %s\'s database unreachable, GET '
                '/servers/detail shows its server %s with status UNKNOWN' % (
                    PARTIAL, cell, server_id))
        entry = self._entry('/servers/detail', server_id, PARTIAL)
        self.assertEqual('UNKNOWN', (entry or {}).get('status'),
                         '%s; it shows: %s' % (rule, entry))

        rule = ('at %s GET /servers lists a server of a down cell as {id, '
                'status: UNKNOWN, links}' % PARTIAL)
        entry = self._entry('/servers', server_id, PARTIAL)
        self.assertIsNotNone(entry, rule)
        self.assertEqual((LIST_KEYS, 'UNKNOWN'),
                         (set(entry), entry['status']), rule)

        rule = ('at %s GET /servers/detail gives {id, status: UNKNOWN, '
                'tenant_id, created, links}' % PARTIAL)
        entry = self._entry('/servers/detail', server_id, PARTIAL)
        self.assertEqual(DETAIL_KEYS, set(entry), rule)
        self.assertEqual(('UNKNOWN', before['tenant_id']),
                         (entry['status'], entry['tenant_id']), rule)
        # Only the API database answers for a down cell, so `created` is
        # stamped on the server's instance mapping, which nova writes just
        # after the build request the full record's `created` comes from
        # (one transaction, milliseconds apart). Shown to the second, the
        # two may straddle a second's boundary: the rule is the same
        # request's time, not the same string.
        apart = abs(_timestamp(entry['created'], rule) -
                    _timestamp(before['created'], rule))
        self.assertLessEqual(
            apart, datetime.timedelta(seconds=1),
            '%s: created %s is the time the server was requested, as its '
            'full record\'s %s' % (rule, entry['created'],
                                   before['created']))

        rule = ('at %s GET /servers/{id} adds image, flavor, user_id, the '
                'requested availability zone (UNKNOWN if none was '
                'requested) and power_state 0' % PARTIAL)
        shown = self.raw.get('/servers/%s' % server_id, PARTIAL)['server']
        self.assertEqual(SHOW_KEYS, set(shown), rule)
        self.assertEqual(
            {'status': 'UNKNOWN', 'image': before['image']['id'],
             'flavor': before['flavor'], 'user_id': before['user_id'],
             'zone': zone, 'power_state': 0},
            {'status': shown['status'], 'image': shown['image']['id'],
             'flavor': shown['flavor'], 'user_id': shown['user_id'],
             'zone': shown['OS-EXT-AZ:availability_zone'],
             'power_state': shown['OS-EXT-STS:power_state']}, rule)

        rule = ('at %s a filtered list skips servers of a down cell' %
                PARTIAL)
        self.assertIsNone(self._entry('/servers?name=%s' % name, server_id,
                                      PARTIAL), rule)

        rule = 'at %s GET /servers/{id} of a down cell is a 500' % BEFORE
        status, _ = self.raw.call('GET', '/servers/%s' % server_id, BEFORE)
        self.assertEqual(500, status, rule)
        rule = 'at %s GET /servers leaves out servers of a down cell' % BEFORE
        self.assertIsNone(self._entry('/servers', server_id, BEFORE), rule)

        rule = ('at %s GET /os-services shows a down cell\'s computes as '
                '{binary, host, status: UNKNOWN}' % PARTIAL)
        services = self.admin_raw.get('/os-services', PARTIAL)['services']
        computes = [s for s in services if s.get('host') in hosts and
                    s.get('binary') == 'nova-compute']
        self.assertEqual(
            [{'binary': 'nova-compute', 'host': h, 'status': 'UNKNOWN'}
             for h in hosts],
            sorted(computes, key=lambda s: s['host']), rule)

        fault.cell_up(cell)
        rule = 'after the cell is back the full record returns (ACTIVE)'
        self.assert_within(rule, lambda: self.raw.get(
            '/servers/%s' % server_id, PARTIAL)['server']['status'] ==
            'ACTIVE', lambda: self.raw.get('/servers/%s' % server_id,
                                           PARTIAL)['server'])
        back = self.raw.get('/servers/%s' % server_id, PARTIAL)['server']
        self.assertTrue(SHOW_KEYS < set(back), rule)
