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

"""A run's report as files: report.json, report.md, report.html and
report.junit.xml.

Its own module so that the page (html.py) renders what build.py judged and
build.py never imports the page."""

import hashlib
import json
import os

from conformance_tests.report import build
from conformance_tests.report import html
from conformance_tests.report import junit


def write(workdir, caps, summary):
    """report.json, report.md, report.html and report.junit.xml; (their
    paths). The page names report.json's sha256, so it is hashed as
    written, bytes."""
    os.makedirs(workdir, exist_ok=True)
    json_path = os.path.join(workdir, 'report.json')
    data = json.dumps({'capabilities': caps, 'summary': summary},
                      indent=2).encode('utf-8')
    with open(json_path, 'wb') as f:
        f.write(data)
    md_path = os.path.join(workdir, 'report.md')
    with open(md_path, 'w') as f:
        f.write(build.markdown(caps, summary))
    html_path = os.path.join(workdir, html.NAME)
    with open(html_path, 'w', encoding='utf-8') as f:
        f.write(html.render(caps, summary,
                            hashlib.sha256(data).hexdigest()))
    junit_path = os.path.join(workdir, junit.NAME)
    with open(junit_path, 'w', encoding='utf-8') as f:
        f.write(junit.render(caps, summary))
    return json_path, md_path, html_path, junit_path
