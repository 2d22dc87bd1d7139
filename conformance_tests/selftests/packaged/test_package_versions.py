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

"""packaged/chroot.package_versions: the matrix header's versions, read
from the built root's dpkg status file."""

import os

import fixtures
import testtools

from conformance_tests.packaged import chroot

STATUS = '''Package: python3-nova
Status: install ok installed
Version: 2:31.0.0-6+deb13u3

Package: nova-common
Version: 2:31.0.0-6+deb13u3

Package: python3-placement
Version: 13.0.0-1

Package: python3-blazarnova
Version: 7.0.0-2
'''


class PackageVersionsTest(testtools.TestCase):

    def test_epoch_and_debian_revision_dropped(self):
        root = self.useFixture(fixtures.TempDir()).path
        os.makedirs(os.path.join(root, 'var', 'lib', 'dpkg'))
        with open(os.path.join(root, 'var', 'lib', 'dpkg', 'status'),
                  'w') as f:
            f.write(STATUS)
        self.assertEqual({'nova': '31.0.0', 'placement': '13.0.0',
                          'blazar-nova': '7.0.0'},
                         chroot.package_versions(root))

    def test_no_built_root_no_versions(self):
        root = self.useFixture(fixtures.TempDir()).path
        self.assertEqual({}, chroot.package_versions(root))
