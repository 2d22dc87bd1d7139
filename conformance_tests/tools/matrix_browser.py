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

"""Open matrix.html in a real browser and read the rendered table back.

`tox -e matrix` runs it after `conformance matrix`: headless Chromium
(Debian's package, installed with apt-get when missing and we are root)
loads the page and prints the DOM it rendered; the series headers, every
cell's verdict, text and mark must be those of matrix.json beside it. A
file that only parses would not show that a browser gets the same table.

    python -m conformance_tests.tools.matrix_browser [.conformance/matrix]
"""

import json
import os
import shutil
import subprocess
import sys

from conformance_tests.report import matrix

BROWSERS = ('chromium', 'chromium-browser', 'google-chrome')
PACKAGE = 'chromium'


class BrowserError(Exception):
    """No browser, or it rendered nothing: one line."""


def find_browser(install=True):
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    if not install or os.geteuid() != 0 or not shutil.which('apt-get'):
        raise BrowserError('no Chromium here: install Debian\'s %s package '
                           '(apt-get install %s)' % (PACKAGE, PACKAGE))
    print('installing Chromium (apt-get install %s)' % PACKAGE, flush=True)
    for argv in (['apt-get', 'update', '-qq'],
                 ['apt-get', 'install', '-y', '-qq', PACKAGE]):
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode:
            lines = (done.stderr or done.stdout).strip().splitlines()
            raise BrowserError('%s failed: %s' % (
                ' '.join(argv), lines[-1] if lines else 'no output'))
    return find_browser(install=False)


def rendered_dom(browser, page):
    """The DOM Chromium rendered for ``page``, as HTML text."""
    done = subprocess.run(
        [browser, '--headless', '--no-sandbox', '--disable-gpu',
         '--dump-dom', 'file://' + os.path.abspath(page)],
        capture_output=True, text=True, timeout=120)
    if done.returncode or '<table' not in done.stdout:
        lines = done.stderr.strip().splitlines()
        raise BrowserError('%s rendered no table from %s (exit %d: %s)' % (
            os.path.basename(browser), page, done.returncode,
            lines[-1] if lines else 'no stderr'))
    return done.stdout


def check(directory, browser):
    """Problems (lines) between the rendered table and matrix.json."""
    with open(os.path.join(directory, 'matrix.json')) as f:
        table = json.load(f)
    want_headers, want_cells = matrix.expected_table(table)
    headers, cells = matrix.read_table(rendered_dom(
        browser, os.path.join(directory, 'matrix.html')))
    problems = []
    if headers != want_headers:
        problems.append('headers %s, matrix.json has %s' % (
            headers, want_headers))
    if len(cells) != len(want_cells):
        problems.append('%d cells rendered, matrix.json has %d' % (
            len(cells), len(want_cells)))
    for k, (got, want) in enumerate(zip(cells, want_cells)):
        if got != want:
            problems.append('cell %d: rendered %s, matrix.json %s' % (
                k, got, want))
    return problems, len(cells), sum(c['differs'] for c in cells), headers


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    directory = argv[0] if argv else os.path.join('.conformance', 'matrix')
    if not os.path.exists(os.path.join(directory, 'matrix.json')):
        print('matrix_browser: no matrix.json in %s: run `conformance '
              'matrix` first' % directory, file=sys.stderr)
        return 2
    try:
        browser = find_browser()
        problems, count, marked, headers = check(directory, browser)
    except (BrowserError, OSError, subprocess.TimeoutExpired) as e:
        print('matrix_browser: %s' % e, file=sys.stderr)
        return 2
    for line in problems:
        print('matrix_browser: %s' % line, file=sys.stderr)
    print('browser check: %s rendered %d cells (%d marked) under %s: %s' % (
        os.path.basename(browser), count, marked, ', '.join(headers),
        'as in matrix.json' if not problems else
        '%d difference(s)' % len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
