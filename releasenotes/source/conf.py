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
