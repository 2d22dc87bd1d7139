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

# Sphinx configuration of the release notes (reno), built by
# conformance_tests/tools/docs_build.py with warnings as errors.

extensions = [
    'openstackdocstheme',
    'reno.sphinxext',
]

project = 'openstack-conformance-tests release notes'
copyright = '2026, OpenStack conformance team'
html_theme = 'openstackdocs'
# openstackdocstheme's links to the project's repository and bug tracker.
openstackdocs_repo_name = 'openstack/openstack-conformance-tests'
openstackdocs_use_storyboard = False
openstackdocs_auto_name = False
master_doc = 'index'
exclude_patterns = []
pygments_style = 'native'
