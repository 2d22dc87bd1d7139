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

"""packaged/generated_conf.py: `conformance config` is given only what
no API tells (and where logs and locks go), and the run is not as
expected when what it found differs from the hand-written file."""

import configparser
import os

import fixtures
import testtools

from conformance_tests.configure import discover
from conformance_tests.packaged import generated_conf
from conformance_tests.preflight import conf as conf_mod


def _conf(test, data):
    """The file ``data`` writes, read as the run reads it."""
    path = os.path.join(test.useFixture(fixtures.TempDir()).path,
                        'tempest.conf')
    parser = configparser.ConfigParser(interpolation=None,
                                       default_section='\0none')
    parser.optionxform = str
    parser.read_dict(dict(data, identity={'uri_v3': 'http://x/v3'}))
    with open(path, 'w') as f:
        parser.write(f)
    return conf_mod.TempestConf(path)


HAND = {
    'DEFAULT': {'log_dir': '/s/logs'},
    'compute': {'image_ref': 'i1', 'image_ref_alt': 'i2', 'flavor_ref': '1',
                'flavor_ref_alt': '2'},
    'service_available': {'nova': 'true', 'placement': 'true',
                          'blazar': 'true', 'senlin': 'false'},
    'conformance': {'allow_disruption': 'true', 'cell_down_name': 'cell2',
                    'anti_affinity_zone': 'z', 'anti_affinity_zone_hosts':
                    '3', 'preemptible_hosts': 'c5,c6'},
}


class TestGeneratedConf(testtools.TestCase):

    def test_given_only_what_no_api_tells_and_the_places(self):
        words = generated_conf.overrides(_conf(self, HAND))
        given = dict(zip(words[::2], words[1::2]))
        self.assertEqual({'conformance.allow_disruption': 'true',
                          'conformance.cell_down_name': 'cell2',
                          'DEFAULT.log_dir': '/s/logs'}, given)

    def test_by_hand_and_the_found_options_never_overlap(self):
        by_hand = {(s, o) for s, o, _ in discover.BY_HAND}
        self.assertEqual(set(), by_hand & set(generated_conf.COMPARED))

    def test_the_same_findings_in_another_form_agree(self):
        generated = {section: dict(values) for section, values in
                     HAND.items()}
        generated['conformance'] = {'anti_affinity_zone': 'z',
                                    'anti_affinity_zone_hosts': '3',
                                    'preemptible_hosts': 'c6,c5'}
        generated['service_available'] = {'nova': 'True', 'placement':
                                          'True', 'blazar': 'True',
                                          'senlin': 'False'}
        self.assertEqual([], generated_conf.differences(
            _conf(self, HAND), _conf(self, generated)))

    def test_a_different_finding_is_named(self):
        generated = {section: dict(values) for section, values in
                     HAND.items()}
        generated['conformance'] = dict(HAND['conformance'],
                                        anti_affinity_zone='nova',
                                        preemptible_hosts='c5')
        del generated['service_available']['blazar']
        self.assertEqual(
            ["[conformance] anti_affinity_zone: hand-written z, "
             "generated nova",
             "[conformance] preemptible_hosts: hand-written ['c5', 'c6'], "
             "generated ['c5']",
             "[service_available] blazar: hand-written true, generated "
             "None"],
            generated_conf.differences(_conf(self, HAND),
                                       _conf(self, generated)))
