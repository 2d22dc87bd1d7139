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

"""Run a `conformance` command (or any module) as a child, timed.

Its output goes to a log file beside the bench's other files, so the
bench's own progress lines stay readable; a failure names that log.
"""

import os
import subprocess
import sys
import time


class ChildError(Exception):
    """A child command failed in a way the bench cannot report past."""


def run_module(module, args, log_path, cwd=None, check=False):
    """(exit code, wall seconds) of ``python -m module args``."""
    started = time.monotonic()
    with open(log_path, 'wb') as log:
        code = subprocess.call([sys.executable, '-m', module] + list(args),
                               stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, cwd=cwd,
                               env=dict(os.environ, PYTHONUNBUFFERED='1'))
    seconds = time.monotonic() - started
    if check and code != 0:
        raise ChildError('%s %s exited %d; see %s' % (
            module, ' '.join(args), code, log_path))
    return code, seconds


def conformance(args, log_path):
    return run_module('conformance_tests.cmd.main', args, log_path)
