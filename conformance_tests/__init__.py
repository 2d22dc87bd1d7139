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

import os


def load_tests(loader, tests, pattern):
    """Tempest discovers the plugin from this package: give it only the
    conformance tests (api/, scenario/), never the plugin's own selftests.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(here)
    for sub in ('api', 'scenario'):
        tests.addTests(loader.discover(os.path.join(here, sub),
                                       pattern=pattern or 'test*.py',
                                       top_level_dir=top))
    return tests
