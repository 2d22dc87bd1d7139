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

"""preflight/preemptible.py: every [conformance] preemptible_hosts host
is enrolled in blazar (by its hypervisor hostname) and in the freepool
aggregate, else one line naming the option and the host."""

import testtools

from conformance_tests.preflight import conf as conf_mod
from conformance_tests.preflight import preemptible

COMPUTE = 'http://127.0.0.1:1/v2.1'
RESERVATION = 'http://127.0.0.1:2/v1'
HYPERVISORS = [
    {'hypervisor_hostname': 'pool1.example.org', 'service': {'host': 'pool1'}},
    {'hypervisor_hostname': 'pool2.example.org', 'service': {'host': 'pool2'}}]


class _Response(object):
    def __init__(self, status, body):
        self.status_code, self._body = status, body

    def json(self):
        return self._body


class _Http(object):
    def __init__(self, answers):
        self.answers = answers
        self.asked = []

    def request(self, method, url, token=None, headers=None):
        self.asked.append((method, url, headers))
        return _Response(*self.answers[url])


class _Conf(object):
    def __init__(self, hosts):
        self.values = {('conformance', 'preemptible_hosts'): hosts,
                       ('conformance', 'blazar_freepool'): 'freepool'}

    def get(self, section, option):
        return self.values.get((section, option), '')


def _answers(enrolled=('pool1.example.org', 'pool2.example.org'),
             freepool=('pool1', 'pool2'), blazar_status=200):
    return {
        COMPUTE + '/os-hypervisors/detail': (200, {'hypervisors':
                                                   HYPERVISORS}),
        RESERVATION + '/os-hosts': (blazar_status, {'hosts': [
            {'id': str(n), 'hypervisor_hostname': name}
            for n, name in enumerate(enrolled)]}),
        COMPUTE + '/os-aggregates': (200, {'aggregates': [
            {'name': 'freepool', 'hosts': list(freepool)},
            {'name': 'other', 'hosts': ['pool2']}]}),
    }


class PreemptibleHostsTest(testtools.TestCase):

    def check(self, answers, hosts='pool1,pool2'):
        findings = {}
        http = _Http(answers)
        preemptible.check(http, 'tok', {'compute': COMPUTE,
                                        'reservation': RESERVATION},
                          _Conf(hosts), findings)
        return findings, http

    def test_enrolled_hosts_in_the_freepool_pass(self):
        findings, http = self.check(_answers())
        self.assertEqual(['pool1', 'pool2'], [
            h['host'] for h in findings['preemptible_hosts']])
        self.assertEqual({'compute 2.53'}, {
            h['OpenStack-API-Version'] for _, _, h in http.asked})

    def test_a_host_not_enrolled_is_one_line_naming_it(self):
        e = self.assertRaises(conf_mod.ConfError, self.check, _answers(
            enrolled=('pool1.example.org',)))
        self.assertIn('[conformance] preemptible_hosts: host pool2 '
                      '(hypervisor pool2.example.org) is not enrolled',
                      str(e))

    def test_a_host_outside_the_freepool_is_refused(self):
        e = self.assertRaises(conf_mod.ConfError, self.check, _answers(
            freepool=('pool1',)))
        self.assertIn('host pool2 is enrolled but not in the freepool',
                      str(e))

    def test_a_refused_read_names_the_call(self):
        e = self.assertRaises(conf_mod.ConfError, self.check, _answers(
            blazar_status=403))
        self.assertIn('GET %s/os-hosts answered 403' % RESERVATION, str(e))

    def test_no_hosts_configured_checks_nothing(self):
        findings, http = self.check(_answers(), hosts='')
        self.assertEqual(({}, []), (findings, http.asked))
