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

"""services/compute/v2/instance_actions.py: the build event is the create
action's ``compute__do_build_and_run_instance``, read at the microversion
the caller names; a server nova has not yet recorded, or whose build has
not reached a host, has none. The compute API is fake: a dict of answers
by URL, as the raw client returns them."""

import testtools

from conformance_tests.services.compute.v2 import instance_actions

SERVER = 's1'
CREATE = {'action': 'create', 'request_id': 'req-create'}
STOP = {'action': 'stop', 'request_id': 'req-stop'}


class FakeRaw(object):
    """GET by URL; records each (url, microversion) it was asked."""

    def __init__(self, answers):
        self.answers = answers
        self.calls = []

    def get(self, url, microversion):
        self.calls.append((url, microversion))
        return self.answers[url]


def answers(actions, events=None):
    found = {'/servers/s1/os-instance-actions': {'instanceActions': actions}}
    for action in actions:
        found['/servers/s1/os-instance-actions/' + action['request_id']] = {
            'instanceAction': dict(action, events=(
                events if action is CREATE else []))}
    return found


class EventTest(testtools.TestCase):

    def test_finds_the_named_event_only(self):
        events = [{'event': 'compute_stop_instance'},
                  {'event': instance_actions.BUILD_EVENT, 'result': 'Success'}]
        self.assertEqual('Success', instance_actions.event(
            events, instance_actions.BUILD_EVENT)['result'])
        self.assertIsNone(instance_actions.event(
            events, 'compute_terminate_instance'))

    def test_no_events_is_no_event(self):
        # Before 2.51 a member's action has no 'events' key at all.
        self.assertIsNone(instance_actions.event(
            None, instance_actions.BUILD_EVENT))


class BuildEventTest(testtools.TestCase):

    def test_reads_the_create_actions_build_at_the_given_microversion(self):
        build = {'event': instance_actions.BUILD_EVENT,
                 'finish_time': '2026-12-03T12:33:08.000000',
                 'result': 'Success'}
        raw = FakeRaw(answers(
            [STOP, CREATE],
            [{'event': 'conductor_schedule_and_build_instances',
              'finish_time': '2026-12-03T12:33:01.000000'}, build]))
        self.assertEqual(build, instance_actions.build_event(
            raw, SERVER, '2.69'))
        self.assertEqual(
            [('/servers/s1/os-instance-actions', '2.69'),
             ('/servers/s1/os-instance-actions/req-create', '2.69')],
            raw.calls)

    def test_a_build_still_running_has_no_finish_time(self):
        raw = FakeRaw(answers([CREATE], [
            {'event': instance_actions.BUILD_EVENT, 'finish_time': None,
             'result': None}]))
        self.assertIsNone(instance_actions.build_event(
            raw, SERVER, '2.51')['finish_time'])

    def test_not_yet_on_a_host_is_none(self):
        raw = FakeRaw(answers([CREATE], [
            {'event': 'conductor_schedule_and_build_instances',
             'finish_time': None}]))
        self.assertIsNone(instance_actions.build_event(raw, SERVER, '2.51'))

    def test_no_create_action_yet_is_none(self):
        raw = FakeRaw(answers([]))
        self.assertIsNone(instance_actions.build_event(raw, SERVER, '2.51'))
