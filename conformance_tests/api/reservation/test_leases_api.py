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

"""Seed 004: the lease and host API the preemptible tests rely on.

Blazar's API reference (v1): create a lease is 201 with the lease, show
200, delete 204; an invalid or past date, or an end before the start, is
400; an unknown lease is 404; the host API is the operator's (403 for a
project member), an unknown host is 404 and a host enrolled twice 409.
Leases here start two days ahead and last an hour, so they reserve
nothing the other tests use now; they are deleted, also on failure. The
class enrols the [conformance] preemptible_hosts blazar does not manage
yet and gives them back; what a test's enrolment attempt might make is
removed after it, also on failure (services/reservation/v1/enrolment.py).
Leases and enrolments name a host by its hypervisor hostname.
"""

import datetime

from oslo_utils import timeutils
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc
from tempest import test

from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.scenario import test_preemptible_instances as seed
from conformance_tests.services.reservation import leases
from conformance_tests.services.reservation.v1 import enrolment

CONF = config.CONF
AHEAD = datetime.timedelta(days=2)


class LeaseAPITest(enrolment.PreemptibleHostsMixin, test.BaseTestCase):
    credentials = ['primary', 'admin']

    @classmethod
    def skip_checks(cls):
        # Before Tempest's own checks (admin credentials): on a cloud
        # without blazar, that is the reason to report.
        skips.skip_if(cls, seed.skip_reason(CONF))
        cls.require_admin()
        super().skip_checks()

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        member = cls.os_primary.conformance_reservation_v1
        cls.leases = member.LeasesClient()
        cls.member_hosts = member.HostsClient()

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.use_preemptible_hosts()

    def lease_body(self, hypervisor_hostname=None, start=None, minutes=60):
        start = start or timeutils.utcnow() + AHEAD
        return leases.host_lease(
            data_utils.rand_name(prefix=CONF.conformance.resource_prefix,
                                 name='lease'),
            hypervisor_hostname or self.pool[-1].hypervisor_hostname, start,
            start=start, minutes=minutes)

    def submit(self, body):
        """POST the lease; its caller judges the answer (outcomes)."""
        # Before the POST: a lease made by a request that failed goes too.
        self.addCleanup(self.delete_leases_named, body['name'])
        return self.leases.create_lease(**body)

    def create(self, body, rule):
        """A lease blazar must accept: a refusal is ``rule``'s failed
        assertion, naming blazar's answer."""
        return outcomes.must_succeed(self, rule, self.submit, body)['lease']

    def delete_leases_named(self, name):
        for lease in self.leases.list_leases()['leases']:
            if lease['name'] == name:
                test_utils.call_and_ignore_notfound_exc(
                    self.leases.delete_lease, lease['id'])

    def assert_status(self, expected, rule, call, *args):
        outcomes.must_be_refused(self, rule, expected, call, *args)

    @decorators.idempotent_id('9d0853e3-e5f8-4158-9528-bf5890f68382')
    def test_host_lease_lifecycle(self):
        rule = ('api-ref: POST /leases is 201 with the lease, GET 200, '
                'DELETE 204, then GET 404')
        body = self.lease_body()
        lease = self.create(body, rule)
        for key in ('id', 'name', 'start_date', 'end_date', 'status',
                    'reservations', 'project_id', 'user_id'):
            self.assertIn(key, lease, '%s: created lease has no %s' % (
                rule, key))
        self.assertEqual(body['name'], lease['name'])
        self.assertEqual(leases.PENDING, lease['status'],
                         '%s: a lease starting later is PENDING' % rule)
        (res,) = lease['reservations']
        self.assertEqual(leases.HOST_RESOURCE, res['resource_type'])
        shown = outcomes.must_succeed(self, rule, self.leases.show_lease,
                                      lease['id'])['lease']
        self.assertEqual((lease['id'], lease['start_date']),
                         (shown['id'], shown['start_date']), rule)
        listed = [item['id'] for item in outcomes.must_succeed(
            self, rule, self.leases.list_leases)['leases']]
        self.assertIn(lease['id'], listed, '%s: not listed' % rule)
        # The client checks the 204: another status is refused too.
        outcomes.must_succeed(self, rule, self.leases.delete_lease,
                              lease['id'])
        self.assert_status(404, '%s: a deleted lease is gone' % rule,
                           self.leases.show_lease, lease['id'])

    @decorators.idempotent_id('58c084cb-9c87-477f-a3b9-9bbb81baf962')
    def test_bad_requests_are_refused(self):
        now = timeutils.utcnow()
        bad_date = dict(self.lease_body(), start_date='2026-13-45 99:99')
        self.assert_status(400, 'api-ref: an invalid start date is 400',
                           self.submit, bad_date)
        backwards = self.lease_body(start=now + AHEAD, minutes=-60)
        self.assert_status(400, 'api-ref: an end before the start is 400',
                           self.submit, backwards)
        past = self.lease_body(start=now - AHEAD)
        self.assert_status(400, 'api-ref: a start in the past is 400',
                           self.submit, past)
        # The control: the same lease starting ahead is accepted, so the
        # refusals above are the dates'.
        self.create(self.lease_body(start=now + AHEAD),
                    'api-ref: a lease starting ahead is accepted (the '
                    'control of the date refusals)')
        missing = '00000000-0000-4000-8000-000000000000'
        self.assert_status(404, 'api-ref: an unknown lease is 404 (show)',
                           self.leases.show_lease, missing)
        self.assert_status(404, 'api-ref: an unknown lease is 404 (delete)',
                           self.leases.delete_lease, missing)
        self.assert_status(403, 'api-ref: the host API is the operator\'s',
                           self.member_hosts.list_hosts)
        # An enrolment either call makes by mistake goes, also on failure.
        self.addCleanup(self.enrolments.remove_made_since,
                        self.enrolments.found())
        self.assert_status(
            404, 'api-ref: enrolling an unknown host is 404',
            self.enrolments.enrol, data_utils.rand_name(
                prefix=CONF.conformance.resource_prefix, name='nohost'))
        self.assert_status(
            409, 'api-ref: enrolling an enrolled host is 409',
            self.enrolments.enrol, self.pool[0].hypervisor_hostname)

    @decorators.idempotent_id('76ae96db-61ca-43b0-a18c-0a5bb7080ed5')
    def test_bad_reservations_are_client_errors(self):
        rule = ('api-ref: a lease whose reservation cannot be made is a '
                'client error (4xx), not a server error')
        unknown_type = self.lease_body()
        unknown_type['reservations'][0]['resource_type'] = 'nonsense'
        no_such_host = self.lease_body(data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name='nohost'))
        answers = []
        for what, body in (('an unknown resource_type', unknown_type),
                           ('a host no one has', no_such_host)):
            try:
                lease = self.submit(body)['lease']
            except lib_exc.RestClientException as e:
                answers.append((what, e.resp.status, error_text(e)))
            else:
                self.fail('%s: %s was accepted (lease %s)' % (
                    rule, what, lease['id']))
        server_errors = [a for a in answers if not 400 <= a[1] < 500]
        self.assertEqual([], server_errors, '%s: rejected with %s' % (
            rule, '; '.join('%s: %d (%s)' % a for a in answers)))


def error_text(exc):
    """The message of blazar's error body ({"error_code", "error_message",
    "error_name"}), else the body as it came."""
    body = exc.resp_body
    if isinstance(body, dict):
        return str(body.get('error_message', body))
    return str(body)
