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

"""Remove what an interrupted run left behind, and nothing else.

A run's tests remove what they create, also when they fail; a run that is
killed cannot. `conformance cleanup` finds the run's leftovers by name
(names.py says which names a run gives) and removes them in dependency
order (plan.py): the cell back first, then servers (waiting until they are
gone), server groups, flavors, aggregates, quota changes, users, projects,
and placement's providers, resource classes and traits. One module per
service says how to find and remove each kind.
"""
