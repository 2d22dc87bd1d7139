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

"""common/waiters.gone: a 404 is gone, an answer is not, other errors
propagate (a check must not read an outage as a deletion)."""

from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import waiters


def show(answer):
    def call(*args):
        if isinstance(answer, Exception):
            raise answer
        return answer
    return call


class GoneTest(testtools.TestCase):

    def test_not_found_is_gone(self):
        self.assertTrue(waiters.gone(show(lib_exc.NotFound()), 'x'))

    def test_an_answer_is_not(self):
        self.assertFalse(waiters.gone(show({'lease': {}}), 'x'))

    def test_other_errors_are_raised(self):
        self.assertRaises(lib_exc.ServerFault, waiters.gone,
                          show(lib_exc.ServerFault()), 'x')
