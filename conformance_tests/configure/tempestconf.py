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

"""python-tempestconf's discover-tempest-config, run as its users run it.

Its command, not its modules: its options and logging are its own, and
it may be installed in another virtualenv than ours (found next to our
Python first, then on PATH). It runs in a directory of the workdir
because it downloads the images it finds into ./etc; its output, which
can hold credentials at --debug, goes to a 0600 log.
"""

import os
import shutil
import subprocess
import sys

from conformance_tests.cloud import secrets as secret_files

COMMAND = 'discover-tempest-config'
INSTALL_HINT = ('python-tempestconf is not installed: pip install '
                'python-tempestconf (or the plugin\'s [config] extra)')


class TempestconfError(Exception):
    """One line: what failed, and where its log is."""


def command():
    """The discover-tempest-config to run, or TempestconfError."""
    beside = os.path.join(os.path.dirname(sys.executable), COMMAND)
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which(COMMAND)
    if found:
        return found
    raise TempestconfError(INSTALL_HINT)


def argv(out, os_cloud=None, create=False, image=None, non_admin=False,
         overrides=()):
    """discover-tempest-config's arguments. ``overrides``: [(section,
    option, value)], given to it as its positional `section.key value`
    pairs so it neither overwrites nor rediscovers them."""
    args = [command(), '--out', out]
    if os_cloud:
        args += ['--os-cloud', os_cloud]
    if create:
        args.append('--create')
    if non_admin:
        args.append('--non-admin')
    if image:
        args += ['--image', image]
    for section, option, value in overrides:
        args += ['%s.%s' % (section, option), value]
    return args


def run(args, workdir):
    """Run it in <workdir>/tempestconf; the log's path."""
    here = os.path.join(workdir, 'tempestconf')
    os.makedirs(here, exist_ok=True)
    log = os.path.join(workdir, 'tempestconf.log')
    with secret_files.private_open(log) as out:
        done = subprocess.run(args, cwd=here, stdout=out,
                              stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL)
    if done.returncode:
        raise TempestconfError('%s failed (exit %d): %s; its log: %s' % (
            COMMAND, done.returncode, last_error(log), log))
    return log


def last_error(log):
    """The last line of the log that says why (an exception or an ERROR
    record), shortened."""
    try:
        with open(log, encoding='utf-8', errors='replace') as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return 'no log'
    for line in reversed(lines):
        if 'Error' in line or 'ERROR' in line or 'Exception' in line:
            return line[:300]
    return lines[-1][:300] if lines else 'no output'
