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

import os
import threading

import fixtures
import testtools

from conformance_tests.common import build_lock


class ExclusiveTest(testtools.TestCase):

    def test_a_second_builder_waits_until_the_first_is_done(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'root.lock')
        said, order = [], []
        second_waits = threading.Event()

        def second():
            def say(line):
                said.append(line)
                second_waits.set()
            with build_lock.exclusive(path, 'the packaged root', say):
                order.append('second')

        with build_lock.exclusive(path, 'the packaged root', said.append):
            builder = threading.Thread(target=second)
            builder.start()
            self.assertTrue(second_waits.wait(10))
            order.append('first')
        builder.join(10)
        self.assertEqual(['first', 'second'], order)
        self.assertEqual(['waiting for another build of the packaged root '
                          '(%s)' % path], said)

    def test_an_uncontended_build_says_nothing(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'venv.lock')
        said = []
        with build_lock.exclusive(path, 'the 2025.1 virtualenv', said.append):
            pass
        self.assertEqual([], said)
