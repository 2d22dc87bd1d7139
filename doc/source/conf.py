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

# Sphinx configuration of the suite's documentation, built by
# conformance_tests/tools/docs_build.py (tox -e docs) with warnings as
# errors. The pages are the Markdown files of doc/ and the README, read
# by MyST; the reference's capability catalogue and options sample are
# generated into reference/_generated/ before every build.

extensions = [
    'openstackdocstheme',
    'myst_parser',
]

project = 'openstack-conformance-tests'
copyright = '2026, OpenStack conformance team'
html_theme = 'openstackdocs'
openstackdocs_repo_name = 'openstack/openstack-conformance-tests'
openstackdocs_use_storyboard = False
openstackdocs_auto_name = False
master_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
exclude_patterns = []
pygments_style = 'native'
# The Markdown pages are written for GitHub and a terminal too: their
# headings may skip a level, and their code spans name files rather than
# link them.
suppress_warnings = ['myst.header']
myst_heading_anchors = 3
