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

"""services/reservation/v1/enrolment.py: a class never enrols a host: it
uses the operator's enrolments under the preemptible hosts' lock and
skips, naming each host, when one is missing; what the refusal tests
enrol by mistake is removed (only what was made since). The blazar host
API is fake (libvirt-like names); the lock is real."""

import subprocess
import sys
import types

import fixtures
import testtools

from conformance_tests.selftests.services.reservation import fakes
from conformance_tests.services.reservation.v1 import enrolment

MARKER = 'conformance_enrolled'


class EnrolmentsTest(testtools.TestCase):

    def test_an_enrolment_is_marked_by_hypervisor_hostname(self):
        blazar = fakes.FakeHosts()
        enrolment.Enrolments(blazar, MARKER).enrol('pool2.example.org')
        (new,) = blazar.records
        self.assertEqual(('pool2', 'true'), (new['service_name'],
                                             new[MARKER]))

    def test_removes_only_marked_enrolments_made_since(self):
        blazar = fakes.FakeHosts(enrolled=[
            ('pool1.example.org', {}),                      # operator's
            ('host1.example.org', {MARKER: 'true'})])       # from before
        enrolments = enrolment.Enrolments(blazar, MARKER)
        found = enrolments.found()
        enrolments.enrol('pool2.example.org')   # accepted by mistake
        blazar._add('host2.example.org', {})   # someone else's, meanwhile
        enrolments.remove_made_since(found)
        self.assertEqual(['host1.example.org', 'host2.example.org',
                          'pool1.example.org'], blazar.names())

    def test_a_host_gone_already_is_fine(self):
        blazar = fakes.FakeHosts()
        enrolments = enrolment.Enrolments(blazar, MARKER)
        found = enrolments.found()
        enrolments.enrol('pool1.example.org')
        real_delete = blazar.delete_host

        def delete_twice(host_id):
            real_delete(host_id)
            real_delete(host_id)   # 404: someone removed it first
        blazar.delete_host = delete_twice
        enrolments.remove_made_since(found)
        self.assertEqual([], blazar.names())


def _held_elsewhere(path):
    """Whether another process finds the lock taken."""
    code = ('import sys; from fasteners import process_lock; '
            'lock = process_lock.InterProcessLock(sys.argv[1]); '
            'print(lock.acquire(blocking=False))')
    out = subprocess.run([sys.executable, '-c', code, path],
                         capture_output=True, text=True, check=True).stdout
    return out.strip() == 'False'


class _Class(enrolment.PreemptibleHostsMixin):
    """A test class's class side: admin clients, class cleanups, skips."""
    cleanups = []
    skipException = testtools.TestCase.skipException

    @classmethod
    def addClassResourceCleanup(cls, function, *args):
        cls.cleanups.append((function, args))


class UsePreemptibleHostsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.lock_path = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.MockPatch(
            'oslo_concurrency.lockutils.get_lock_path',
            return_value=self.lock_path))
        self.useFixture(fixtures.MockPatchObject(
            enrolment.config, 'CONF', types.SimpleNamespace(
                conformance=types.SimpleNamespace(
                    resource_prefix='conformance',
                    preemptible_hosts=['pool1', 'pool2']))))
        self.blazar = fakes.FakeHosts(enrolled=[('pool1.example.org', {})])
        hypervisors = types.SimpleNamespace(
            list_hypervisors=lambda detail: {
                'hypervisors': fakes.HYPERVISORS})
        reservation = types.SimpleNamespace(HostsClient=lambda: self.blazar)
        _Class.os_admin = types.SimpleNamespace(
            hypervisor_client=hypervisors,
            conformance_reservation_v1=reservation)
        _Class.cleanups = []

    def run_class_cleanups(self):
        log = []
        while _Class.cleanups:
            function, args = _Class.cleanups.pop()
            log.append(function.__name__)
            function(*args)
        return log

    def test_holds_the_lock_and_enrols_nothing(self):
        self.blazar._add('pool2.example.org', {})
        path = enrolment.hosts_lock(self.lock_path).path
        pool = _Class.use_preemptible_hosts()
        self.assertEqual([('pool1', 'pool1.example.org'),
                          ('pool2', 'pool2.example.org')], pool)
        self.assertEqual([], [e for e in self.blazar.log
                              if e[0] in ('POST', 'DELETE')])
        self.assertTrue(_held_elsewhere(path))
        self.assertEqual(['release'], self.run_class_cleanups())
        self.assertEqual(['pool1.example.org', 'pool2.example.org'],
                         self.blazar.names())
        self.assertFalse(_held_elsewhere(path))

    def test_a_host_not_enrolled_skips_naming_it(self):
        e = self.assertRaises(testtools.TestCase.skipException,
                              _Class.use_preemptible_hosts)
        self.assertIn('pool2 (hypervisor pool2.example.org) not enrolled',
                      str(e))
        self.assertIn('[conformance] preemptible_hosts', str(e))
        self.assertEqual(['pool1.example.org'], self.blazar.names())
        self.assertEqual(['release'], self.run_class_cleanups())
        self.assertFalse(_held_elsewhere(
            enrolment.hosts_lock(self.lock_path).path))

    def test_a_host_without_one_hypervisor_fails_with_the_lock_released(
            self):
        _Class.os_admin.hypervisor_client = types.SimpleNamespace(
            list_hypervisors=lambda detail: {'hypervisors': []})
        self.assertRaises(LookupError, _Class.use_preemptible_hosts)
        self.assertEqual(['release'], self.run_class_cleanups())
