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

"""configure/discover.py and images.py: the choices `conformance config`
makes from what the API shows, each held to its rule with data in the
shape nova, blazar and glance answer."""

import testtools

from conformance_tests.configure import discover
from conformance_tests.configure import images


def _zone(name, **hosts):
    """hosts: name=(available, active)."""
    return {'zoneName': name, 'zoneState': {'available': True},
            'hosts': {host: {'nova-compute': {'available': up[0],
                                              'active': up[1]}}
                      for host, up in hosts.items()}}


UP = (True, True)
HYPERVISORS = [
    {'hypervisor_hostname': 'c1.example.org', 'service': {'host': 'c1'}},
    {'hypervisor_hostname': 'pool1.example.org', 'service': {'host': 'pool1'}},
    {'hypervisor_hostname': 'pool2.example.org', 'service': {'host': 'pool2'}},
    {'hypervisor_hostname': 'pool3.example.org', 'service': {'host': 'pool3'}}]


class TestZoneForScenarios(testtools.TestCase):

    def test_the_zone_with_most_available_hosts(self):
        zones = [_zone('small', a=UP, b=UP),
                 _zone('big', c=UP, d=UP, e=UP),
                 {'zoneName': 'internal', 'hosts': {
                     'x': {'nova-conductor': {'available': True,
                                              'active': True}}}}]
        self.assertEqual(('big', ['c', 'd', 'e']),
                         discover.zone_for_scenarios(zones, set()))

    def test_hosts_down_disabled_or_in_the_freepool_do_not_count(self):
        zones = [_zone('big', c=UP, d=(False, True), e=(True, False),
                       p=UP),
                 _zone('small', a=UP, b=UP)]
        self.assertEqual(('small', ['a', 'b']),
                         discover.zone_for_scenarios(zones, {'p'}))

    def test_a_tie_goes_to_the_first_name(self):
        zones = [_zone('zeta', a=UP, b=UP), _zone('alpha', c=UP, d=UP)]
        self.assertEqual('alpha',
                         discover.zone_for_scenarios(zones, set())[0])

    def test_no_zone_of_two_hosts_is_none(self):
        self.assertIsNone(discover.zone_for_scenarios(
            [_zone('one', a=UP), _zone('internal', b=UP, c=UP)], set()))


class TestPreemptibleHosts(testtools.TestCase):

    def test_enrolled_and_in_the_freepool(self):
        enrolled = [{'hypervisor_hostname': 'pool1.example.org'},
                    {'hypervisor_hostname': 'pool2.example.org'},
                    {'hypervisor_hostname': 'c1.example.org'}]
        aggregates = [{'name': 'freepool', 'hosts': ['pool2', 'pool1',
                                                     'pool3']},
                      {'name': 'other', 'hosts': ['c1']}]
        # pool3 is in the aggregate but blazar does not manage it; c1 is
        # enrolled but leased out of the freepool.
        self.assertEqual(['pool1', 'pool2'], discover.preemptible_hosts(
            HYPERVISORS, enrolled, aggregates, 'freepool'))

    def test_a_host_of_several_nodes_is_left_out(self):
        hypervisors = HYPERVISORS + [{'hypervisor_hostname': 'pool1-b',
                                      'service': {'host': 'pool1'}}]
        enrolled = [{'hypervisor_hostname': 'pool1.example.org'}]
        self.assertEqual([], discover.preemptible_hosts(
            hypervisors, enrolled, [{'name': 'fp', 'hosts': ['pool1']}],
            'fp'))

    def test_no_freepool_aggregate_says_its_name(self):
        e = self.assertRaises(LookupError, discover.preemptible_hosts,
                              HYPERVISORS, [], [{'name': 'other'}],
                              'freepool')
        self.assertEqual('nova has no aggregate named freepool', str(e))


class TestSmallChoices(testtools.TestCase):

    def test_drs_hypervisor_is_the_first_listed(self):
        self.assertEqual('esx-DRS-2', discover.drs_hypervisor(
            [{'hypervisor_hostname': 'c1'},
             {'hypervisor_hostname': 'esx-DRS-2'},
             {'hypervisor_hostname': 'drs-1'}]))
        self.assertIsNone(discover.drs_hypervisor(HYPERVISORS))

    def test_service_flags_follow_the_catalog(self):
        self.assertEqual({'blazar': 'true', 'senlin': 'false'},
                         discover.service_flags(
                             {'compute', 'reservation'},
                             [('blazar', 'reservation'),
                              ('senlin', 'clustering')]))

    def test_every_by_hand_option_is_an_option_of_the_plugin(self):
        from conformance_tests import config
        names = {o.name for o in config.ConformanceGroup}
        for section, option, why in discover.BY_HAND:
            self.assertEqual('conformance', section)
            self.assertIn(option, names)
            self.assertTrue(why)


class TestImages(testtools.TestCase):

    def _image(self, id_, size, name='i', status='active',
               visibility='public'):
        return {'id': id_, 'size': size, 'name': name, 'status': status,
                'visibility': visibility}

    def test_the_two_smallest_active_public_images(self):
        chosen = images.choose([
            self._image('big', 900), self._image('b', 10, 'b'),
            self._image('a', 10, 'a'), self._image('queued', 1,
                                                   status='queued'),
            self._image('private', 1, visibility='private')])
        self.assertEqual(('a', 'b'), chosen)

    def test_one_image_serves_twice_and_none_is_none(self):
        self.assertEqual(('only', 'only'),
                         images.choose([self._image('only', 5)]))
        self.assertIsNone(images.choose([self._image('q', 5,
                                                     status='queued')]))
