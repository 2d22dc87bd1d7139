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

"""cloud/launcher.py: what runs beside a cloud's start, without a cloud."""

import threading

import testtools

from conformance_tests.cloud import launcher


class FakeContext(object):
    def __init__(self):
        self.tokens = 0

    def admin_token(self):
        self.tokens += 1
        return 'token'


class Step(object):
    def __init__(self, name, barrier=None, error=None):
        self.name, self.barrier, self.error = name, barrier, error
        self.ran = False

    def after_ready(self, ctx):
        if self.barrier:
            self.barrier.wait(timeout=5)  # only passes if both run at once
        self.ran = True
        if self.error:
            raise self.error


class AfterReadyTest(testtools.TestCase):

    def test_services_set_up_side_by_side(self):
        barrier = threading.Barrier(2)
        steps = [Step('a', barrier), Step('b', barrier)]
        ctx = FakeContext()
        launcher._after_ready_side_by_side(ctx, steps)
        self.assertEqual([True, True], [s.ran for s in steps])
        self.assertEqual(1, ctx.tokens)  # fetched once, before the threads

    def test_an_error_is_raised_after_every_step_ended(self):
        steps = [Step('a', error=ValueError('zones')), Step('b')]
        self.assertRaises(ValueError, launcher._after_ready_side_by_side,
                          FakeContext(), steps)
        self.assertTrue(steps[1].ran)

    def test_a_timed_out_request_is_a_one_line_cloud_error(self):
        step = Step('blazar', error=TimeoutError('timed out'))
        step.process = 'blazar'
        e = self.assertRaises(launcher.CloudError,
                              launcher._after_ready_side_by_side,
                              FakeContext(), [step])
        self.assertIn('blazar set-up after it answered: TimeoutError: '
                      'timed out', str(e))
        self.assertNotIn('\n', str(e))


class BesideTest(testtools.TestCase):

    def test_steps_run_in_order_and_none_is_skipped(self):
        ran = []
        beside = launcher._Beside(lambda: ran.append(1), None,
                                  lambda: ran.append(2))
        beside.result()
        self.assertEqual([1, 2], ran)

    def test_a_failed_step_stops_the_rest_and_is_raised_in_the_caller(self):
        ran = []

        def fail():
            raise OSError('tempest init failed')

        beside = launcher._Beside(fail, lambda: ran.append('listing'))
        self.assertRaises(OSError, beside.result)
        self.assertEqual([], ran)


class ServeTest(testtools.TestCase):
    """A cloud told what to serve runs only that, on the whole cloud's
    port layout, and still takes a profile's settings of what it left
    out (a mutant's cloud, cmd/mutants.py)."""

    def test_only_what_serves_the_types_on_the_whole_layout(self):
        whole = launcher.EmbeddedCloud('/nonexistent', port_base=18900)
        cloud = launcher.EmbeddedCloud('/nonexistent', port_base=18900,
                                       serve=(['placement'], []),
                                       drs_hypervisor=False)
        self.assertEqual(['keystone', 'placement'],
                         [s.name for s in cloud.services])
        self.assertEqual({n: whole.ports[n] for n in cloud.ports},
                         cloud.ports)
        self.assertFalse(cloud.settings['drs_hypervisor'])

    def test_no_serve_runs_every_service(self):
        cloud = launcher.EmbeddedCloud('/nonexistent')
        self.assertIn('blazar', [s.name for s in cloud.services])
        self.assertIn('senlin', cloud.ports)
