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

"""nova's per-release choices, by installed version: eventlet mode
before nova 34, options newer than the oldest nova dropped."""

import testtools

from conformance_tests.cloud.services import nova
from conformance_tests.cloud.services.nova import app


class EventletModeTest(testtools.TestCase):

    def test_by_major_version(self):
        self.assertTrue(nova.eventlet_mode((29, 4, 0)))
        self.assertTrue(nova.eventlet_mode((31, 0, 0)))
        self.assertTrue(nova.eventlet_mode((32, 2, 1)))
        self.assertTrue(nova.eventlet_mode((33, 0, 2)))
        self.assertFalse(nova.eventlet_mode((34, 0, 0)))

    def test_installed_nova_of_this_virtualenv(self):
        from conformance_tests.cloud import packages
        version = packages.installed_version('nova')
        self.assertEqual(version[0] < nova.THREADING_MAJOR,
                         nova.eventlet_mode())


class _Group(object):
    def __init__(self, names):
        self.names = names

    def __contains__(self, name):
        return name in self.names


class _Conf(object):
    def __init__(self, groups):
        self.groups = groups

    def __getitem__(self, group):
        if group not in self.groups:
            raise AttributeError(group)
        return _Group(self.groups[group])


class NewerOptionsTest(testtools.TestCase):

    def test_kept_when_nova_has_it(self):
        conf = _Conf({'api': ['response_validation', 'x']})
        self.assertEqual(
            {'response_validation': 'warn'},
            app.newer_options_dropped(conf, 'api',
                                      {'response_validation': 'warn'}))

    def test_dropped_when_nova_lacks_it(self):
        conf = _Conf({'api': ['x']})
        self.assertEqual({'x': 1}, app.newer_options_dropped(
            conf, 'api', {'response_validation': 'warn', 'x': 1}))

    def test_other_unknown_options_are_left_for_flags_to_refuse(self):
        conf = _Conf({})
        self.assertEqual({'nope': 1}, app.newer_options_dropped(
            conf, 'api', {'nope': 1}))
