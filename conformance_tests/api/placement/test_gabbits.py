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

"""Placement conformance tests: one test per YAML file in gabbits/placement.

Seed 003 (forbidden aggregates, member_of=!…, placement 1.32). Each file's
meta names the spec rule it proves; guidelines/ maps files to capabilities
by idempotent id.
"""

from conformance_tests.api.placement import base
from conformance_tests.common import gabbi_runner


@gabbi_runner.generate_tests
class PlacementGabbiTest(base.PlacementGabbiBase):
    """Generated: test_<file name> for every gabbits/placement/*.yaml."""
