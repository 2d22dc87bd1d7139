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
