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

"""Seed 004 through a real client: `openstack reservation lease ...`.

python-blazarclient's OSC plugin creates, shows and deletes a host lease
(starting two days ahead, so it reserves nothing in use now), and the API
agrees with what it printed. Credentials reach the command through OS_*
environment variables, never its command line. The class enrols the host
it leases if blazar does not manage it yet, and gives it back
(services/reservation/v1/enrolment.py); the lease names the host's
hypervisor hostname.
"""

import datetime

from oslo_utils import timeutils
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest import test

from conformance_tests.common import cli
from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.scenario import test_preemptible_instances as seed
from conformance_tests.services.reservation import leases
from conformance_tests.services.reservation.v1 import enrolment

CONF = config.CONF
RULE = ('openstack reservation lease create/show/delete round-trips a host '
        'lease')
# blazarclient 4.6 warns about an OSC command it cannot load on every
# call; a failure shows what remains.
NOISE = ('Could not load',)
# A command whose request the API refused: cliff's exit status.
CLIENT_ERROR_EXIT = 1


class LeaseCLITest(enrolment.PreemptibleHostsMixin, test.BaseTestCase):
    # admin: the hypervisor hostname of the host and its enrolment.
    credentials = ['primary', 'admin']

    @classmethod
    def skip_checks(cls):
        # Before Tempest's own checks (admin credentials): on a cloud
        # without blazar, that is the reason to report.
        skips.skip_if(cls, seed.skip_reason(CONF))
        cls.require_admin()
        super().skip_checks()
        skips.skip_if(cls, cli.skip_reason(CONF, 'python-blazarclient'))

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.leases = (
            cls.os_primary.conformance_reservation_v1.LeasesClient())

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.use_preemptible_hosts()

    def setUp(self):
        super().setUp()
        self.cli = cli.OpenStack(
            CONF, self.os_primary.credentials, RULE,
            region=CONF.compute.region or CONF.identity.region,
            interface=CONF.compute.endpoint_type, noise=NOISE)

    @decorators.idempotent_id('ba0507ea-3b6f-486f-aecd-ec888d8b98eb')
    @decorators.attr(type=['slow'])
    def test_host_lease_through_blazarclient(self):
        name = data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name='cli-lease')
        # Three days ahead: a window no other seed-004 test reserves.
        start = timeutils.utcnow() + datetime.timedelta(days=3)
        end = start + datetime.timedelta(hours=1)
        hypervisor = self.pool[-1].hypervisor_hostname
        # Before the command: a lease it made before failing goes too.
        self.addCleanup(self.delete_leases_named, name)
        created = self.cli.json(
            'reservation', 'lease', 'create',
            '--start-date', leases.blazar_date(start),
            '--end-date', leases.blazar_date(end),
            '--reservation',
            'resource_type=physical:host,min=1,max=1,'
            'hypervisor_properties=["==","$hypervisor_hostname","%s"]' % (
                hypervisor),
            name)
        self.assertEqual(name, created.get('name'), '%s: create' % RULE)
        api = outcomes.must_succeed(self, RULE, self.leases.show_lease,
                                    created['id'])['lease']
        self.assertEqual(
            (name, leases.blazar_date(start)),
            (api['name'], api['start_date'][:16].replace('T', ' ')),
            '%s: the API has the lease the client created' % RULE)
        (res,) = api['reservations']
        self.assertEqual(leases.HOST_RESOURCE, res['resource_type'], RULE)
        # The control of the not-found below: the same command shows the
        # lease (exit 0) before the delete.
        shown = self.cli.json('reservation', 'lease', 'show', created['id'])
        self.assertEqual(created['id'], shown.get('id'), '%s: show' % RULE)
        self.cli.run('reservation', 'lease', 'delete', created['id'])
        gone = self.cli.run('reservation', 'lease', 'show', created['id'],
                            check=False)
        # Gone is the client's not-found error, as python-blazarclient
        # prints blazar's 404 (exit status 1, "ERROR: Object with
        # {'lease_id': '<id>'} not found"), not any failure of the command.
        said = gone.errors()
        self.assertEqual(
            (CLIENT_ERROR_EXIT, True), (gone.returncode, bool(
                leases.cli_not_found(created['id']).search(said))),
            '%s: after `%s` exited 0, `%s` must fail with the client\'s '
            'not-found error (exit %d, a message naming lease %s as not '
            'found); it exited %d: %r' % (
                RULE, 'openstack reservation lease delete %s' % created['id'],
                gone.shown, CLIENT_ERROR_EXIT, created['id'],
                gone.returncode, said))

    def delete_leases_named(self, name):
        for lease in self.leases.list_leases()['leases']:
            if lease['name'] == name:
                test_utils.call_and_ignore_notfound_exc(
                    self.leases.delete_lease, lease['id'])
