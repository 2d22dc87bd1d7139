"""Seed 004 through a real client: `openstack reservation lease ...`.

python-blazarclient's OSC plugin creates, shows and deletes a host lease
(starting two days ahead, so it reserves nothing in use now), and the API
agrees with what it printed. Credentials reach the command through OS_*
environment variables, never its command line.
"""

import datetime
import json
import subprocess

from oslo_utils import timeutils
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest import test

from conformance_tests.api.compute import test_server_group_cli as cli
from conformance_tests.scenario import test_preemptible_instances as seed
from conformance_tests.services.reservation import leases

CONF = config.CONF
RULE = ('openstack reservation lease create/show/delete round-trips a host '
        'lease')


def _errors(stderr):
    # blazarclient 4.6 warns about an OSC command it cannot load on every
    # call; the error is what remains.
    return '\n'.join(line for line in stderr.splitlines()
                     if not line.startswith('Could not load'))[-800:]


class LeaseCLITest(test.BaseTestCase):
    credentials = ['primary']

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        reason = seed.skip_reason(CONF)
        if reason:
            raise cls.skipException(reason)
        if not cli._openstack_command():
            raise cls.skipException(
                'no `openstack` command: install python-openstackclient and '
                'python-blazarclient or set [conformance] openstack_cli to '
                'its path')

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.leases = (
            cls.os_primary.conformance_reservation_v1.LeasesClient())

    def _env(self):
        env = cli.ServerGroupCLITest._env(self)
        env.pop('OS_COMPUTE_API_VERSION', None)
        return env

    def _openstack(self, *args, expect_ok=True):
        done = subprocess.run([cli._openstack_command()] + list(args),
                              env=self._env(), capture_output=True,
                              text=True, timeout=120)
        if expect_ok:
            self.assertEqual(0, done.returncode, '%s: `openstack %s` exited '
                             '%d: %s' % (RULE, ' '.join(args),
                                         done.returncode,
                                         _errors(done.stderr)))
        return done

    def _json(self, *args):
        out = self._openstack(*(args + ('-f', 'json'))).stdout
        try:
            # `lease create` prints "Created a new lease:" before the JSON.
            return json.loads(out[out.find('{'):])
        except ValueError:
            self.fail('%s: `openstack %s -f json` printed no JSON: %r' % (
                RULE, ' '.join(args), out[:300]))

    @decorators.idempotent_id('ba0507ea-3b6f-486f-aecd-ec888d8b98eb')
    @decorators.attr(type=['slow'])
    def test_host_lease_through_blazarclient(self):
        name = data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name='cli-lease')
        # Three days ahead: a window no other seed-004 test reserves.
        start = timeutils.utcnow() + datetime.timedelta(days=3)
        end = start + datetime.timedelta(hours=1)
        host = CONF.conformance.preemptible_hosts[-1]
        created = self._json(
            'reservation', 'lease', 'create',
            '--start-date', leases.blazar_date(start),
            '--end-date', leases.blazar_date(end),
            '--reservation',
            'resource_type=physical:host,min=1,max=1,'
            'hypervisor_properties=["==","$hypervisor_hostname","%s"]' % (
                host),
            name)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.leases.delete_lease, created.get('id'))
        self.assertEqual(name, created.get('name'), '%s: create' % RULE)
        api = self.leases.show_lease(created['id'])['lease']
        self.assertEqual(
            (name, leases.blazar_date(start)),
            (api['name'], api['start_date'][:16].replace('T', ' ')),
            '%s: the API has the lease the client created' % RULE)
        (res,) = api['reservations']
        self.assertEqual(leases.HOST_RESOURCE, res['resource_type'], RULE)
        shown = self._json('reservation', 'lease', 'show', created['id'])
        self.assertEqual(created['id'], shown.get('id'), '%s: show' % RULE)
        self._openstack('reservation', 'lease', 'delete', created['id'])
        gone = self._openstack('reservation', 'lease', 'show', created['id'],
                               expect_ok=False)
        self.assertNotEqual(0, gone.returncode,
                            '%s: the lease is gone after delete' % RULE)
