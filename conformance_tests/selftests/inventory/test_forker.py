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

"""inventory/forker.py: a mutant run's inventories, forked from a warm
process, answer as the listing's own process does."""

import os
import subprocess
import sys

import fixtures
import testtools

from conformance_tests.inventory import forker
from conformance_tests.inventory import guard
from conformance_tests.inventory import listing
from conformance_tests.selftests import warm_process


class ForkerTest(testtools.TestCase):
    """The real warm process (it imports Tempest: about a second)."""

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def test_a_child_fails_as_the_listing_process_does(self):
        conf = os.path.join(self.dir, 'etc', 'tempest.conf')
        out = os.path.join(self.dir, 'out.json')
        alone = subprocess.run(
            [sys.executable, '-m', 'conformance_tests.inventory.listing',
             conf, out], capture_output=True, text=True)
        with forker.Forker() as warm:
            codes = [warm.take(conf, out, os.path.join(
                self.dir, 'errors-%d' % k)) for k in (1, 2)]
        self.assertEqual(2, alone.returncode)
        # the same code and line each time: every child reads its conf
        self.assertEqual([alone.returncode] * 2, codes)
        for k in (1, 2):
            with open(os.path.join(self.dir, 'errors-%d' % k)) as f:
                self.assertEqual(alone.stderr, f.read())
        self.assertFalse(os.path.exists(out))

    def test_a_closed_process_is_an_error_not_a_hang(self):
        warm = forker.Forker()
        warm.close()
        self.assertRaises(forker.ForkerError, warm.take, 'c', 'o', 'e')


class ForkerRefusesTest(warm_process.RefusesToForkTests,
                        testtools.TestCase):
    SERVE = ('from conformance_tests.inventory import forker\n'
             'sys.exit(forker.serve())')


class GuardWithForkerTest(testtools.TestCase):
    """guard.Guard hands its inventories to the warm process and reads
    their answers as it reads the listing process's."""

    class Warm(object):
        def __init__(self, found=None, error=None):
            self.found, self.error, self.asked = found, error, []

        def take(self, conf, out, errors):
            self.asked.append(conf)
            with open(errors, 'w') as f:
                f.write(self.error or '')
            if self.error:
                return 2
            with open(out, 'w') as f:
                f.write('{"servers": %s}' % ('["s1"]' if len(
                    self.asked) > 1 else '[]'))
            return 0

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def test_what_the_tests_left_is_the_difference(self):
        warm = self.Warm()
        with guard.Guard(True, '/ws', self.dir, say=lambda m: None,
                         forker=warm) as inventory:
            pass
        self.assertEqual(['/ws/etc/tempest.conf'] * 2, warm.asked)
        self.assertEqual({'servers': {'added': ['s1'], 'removed': []}},
                         inventory.differences)

    def test_a_child_error_is_the_guards_one_line(self):
        warm = self.Warm(error='inventory: cannot authenticate\n')
        error = self.assertRaises(
            guard.InventoryError, guard.Guard(
                True, '/ws', self.dir, say=lambda m: None,
                forker=warm).__enter__)
        self.assertEqual('inventory: cannot authenticate', str(error))


class TakeSideBySideTest(testtools.TestCase):
    """take() lists each service in a thread of its own: every offered
    service listed, nothing of one lost."""

    def test_each_offered_service_is_listed(self):
        calls = []

        class Leases(object):
            def list_leases(self):
                calls.append('leases')
                return {'leases': [{'id': 'l1'}]}

        class Images(object):
            def list_images(self):
                calls.append('images')
                return {'images': [{'id': 'i1'}, {'id': 'i2'}]}

        ctx = type('Ctx', (), {'leases_client': Leases(),
                               'images_client': Images()})()
        for absent in ('servers_client', 'users_client', 'placement_client',
                       'clustering_client', 'hosts_client'):
            setattr(ctx, absent, None)
        self.assertEqual({'leases': {'l1'}, 'images': {'i1', 'i2'}},
                         listing.take(ctx))
        self.assertEqual(['images', 'leases'], sorted(calls))

    def test_a_service_error_reaches_the_caller(self):
        class Broken(object):
            def list_leases(self):
                raise RuntimeError('503')

        ctx = type('Ctx', (), {'leases_client': Broken()})()
        for absent in ('servers_client', 'users_client', 'images_client',
                       'placement_client', 'clustering_client',
                       'hosts_client'):
            setattr(ctx, absent, None)
        self.assertRaises(RuntimeError, listing.take, ctx)
