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

"""glance before 33 needs its paste file beside its config file."""

import os

import fixtures
import testtools

from conformance_tests.cloud.services import glance


class PasteBesideConfTest(testtools.TestCase):

    def test_by_major_version(self):
        self.assertTrue(glance.paste_beside_conf((28, 2, 0)))
        self.assertTrue(glance.paste_beside_conf((32, 0, 0)))
        self.assertFalse(glance.paste_beside_conf((33, 0, 0)))

    def test_config_names_the_wheels_paste_file(self):
        work = self.useFixture(fixtures.TempDir()).path
        path = glance.glance_conf(work, 'http://127.0.0.1:1', {
            'username': 'glance', 'password': 'p'}, 'http://127.0.0.1:2')
        with open(path) as f:
            self.assertIn(glance.paste_ini(), f.read())
        self.assertTrue(os.path.basename(glance.paste_ini()).endswith(
            '-paste.ini'))
