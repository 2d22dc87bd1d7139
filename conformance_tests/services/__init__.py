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

"""The APIs the suite tests, one declaration each (see api.py).

Adding an API is: its package under services/<api>/v<N>/ binding ``API``,
and its module in REGISTERED below. The plugin, the cleanup plan and the
report iterate over this list and name no API.
"""

import importlib

# The one registration point. Order is only the order of registration;
# the cleanup plan orders its steps by their stage.
REGISTERED = (
    'conformance_tests.services.identity',
    'conformance_tests.services.compute.v2',
    'conformance_tests.services.placement.v1',
    'conformance_tests.services.clustering.v1',
    'conformance_tests.services.reservation.v1',
)


def all(modules=None):
    """Every registered API's declaration.

    (Shadows the builtin inside this module: nothing here uses it.)
    ``modules`` defaults to REGISTERED as it is at call time.
    """
    return [importlib.import_module(m).API
            for m in (REGISTERED if modules is None else modules)]


def guideline_files():
    """Capability files the APIs keep beside their packages."""
    return [path for api in all() for path in api.guidelines]
