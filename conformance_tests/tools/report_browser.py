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

"""Open a run's report.html in a real browser and read it back.

report/html.py's check() reads the page as a parser does; a receiver
reads what a browser renders. Headless Chromium (matrix_browser finds or
installs it) loads the page and prints the DOM it built; every
capability row's verdict, expectation and shown text, and the report.json
sha256 the page names, must be those of report.json beside it.

    python -m conformance_tests.tools.report_browser [.conformance]
"""

import os
import subprocess
import sys

from conformance_tests.report import html
from conformance_tests.tools import matrix_browser


def check(directory, browser):
    """(problems (lines), rows rendered) between the DOM Chromium
    rendered of ``directory``'s report.html and its report.json."""
    with open(os.path.join(directory, 'report.json'), 'rb') as f:
        report_json = f.read()
    dom = matrix_browser.rendered_dom(browser,
                                      os.path.join(directory, html.NAME))
    return html.check(dom, report_json), len(html.read(dom)[0])


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    directory = argv[0] if argv else '.conformance'
    for name in ('report.json', html.NAME):
        if not os.path.exists(os.path.join(directory, name)):
            print('report_browser: no %s in %s: run `conformance run` '
                  'first' % (name, directory), file=sys.stderr)
            return 2
    try:
        browser = matrix_browser.find_browser()
        problems, count = check(directory, browser)
    except (matrix_browser.BrowserError, OSError,
            subprocess.TimeoutExpired) as e:
        print('report_browser: %s' % e, file=sys.stderr)
        return 2
    for line in problems:
        print('report_browser: %s' % line, file=sys.stderr)
    print('browser check: %s rendered %d capability rows of %s: %s' % (
        os.path.basename(browser), count,
        os.path.join(directory, html.NAME),
        'as in report.json' if not problems else
        '%d difference(s)' % len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
