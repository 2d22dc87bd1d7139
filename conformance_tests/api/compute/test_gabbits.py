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

"""Compute conformance tests: one test per YAML file in gabbits/compute.

Seed 000 (server-group policy + rules, max_server_per_host, compute
2.64): the API contract. The scheduling behaviour is proven by
conformance_tests/scenario/test_server_group_spread.py.
"""

from conformance_tests.api.compute import base
from conformance_tests.common import gabbi_runner


@gabbi_runner.generate_tests
class ComputeGabbiTest(base.ComputeGabbiBase):
    """Generated: test_<file name> for every gabbits/compute/*.yaml."""
