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

"""common/skips.py: one availability skip, naming the option to set."""

import types

import testtools

from conformance_tests.common import skips


def conf(**available):
    return types.SimpleNamespace(
        service_available=types.SimpleNamespace(**available))


class Skipped(Exception):
    pass


class Cls(object):
    skipException = Skipped


class SkipsTest(testtools.TestCase):

    def test_messages_name_the_option(self):
        self.assertEqual(
            'nova is not available: set [service_available] nova = true to '
            'run the compute conformance tests',
            skips.unavailable(conf(nova=False), 'nova',
                              'the compute conformance tests'))
        self.assertEqual(
            'senlin is not available: set [service_available] senlin = true '
            'to run seed 002',
            skips.unavailable(conf(senlin=False), 'senlin', 'seed 002'))
        self.assertIsNone(skips.unavailable(conf(nova=True), 'nova', 'x'))

    def test_require_service_raises_the_class_skip(self):
        e = self.assertRaises(Skipped, skips.require_service, Cls,
                              conf(blazar=False), 'blazar',
                              'the seed-004 tests')
        self.assertIn('[service_available] blazar = true', str(e))
        skips.require_service(Cls, conf(blazar=True), 'blazar', 'x')

    def test_skip_if(self):
        skips.skip_if(Cls, None)
        e = self.assertRaises(Skipped, skips.skip_if, Cls, 'set [a] b')
        self.assertEqual('set [a] b', str(e))
