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

import ctypes
import os
import resource
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


# prctl(2): this process becomes the reaper of its descendants' orphans.
PR_SET_CHILD_SUBREAPER = 36


def _subreaper(on):
    """True once this process reaps its descendants' orphans (on) or no
    longer does; False where the OS does not say (not Linux)."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    return prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def children_of(pid, proc='/proc'):
    """{pid: state letter} of the processes whose parent is ``pid``."""
    out = {}
    for entry in os.listdir(proc):
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join(proc, entry, 'stat')) as f:
                # After the command name, which may hold spaces: state,
                # then the parent's pid.
                fields = f.read().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out[int(entry)] = fields[0]
    return out


class DescendantsCPU(object):
    """CPU seconds (user and system, every thread) of all the processes
    started inside the ``with`` block: the children it waits for, their
    own waited-for children, and the orphans they leave, which this
    process reaps meanwhile (Linux's child subreaper). A run's cloud
    needs that: its service processes are forks of a zygote that ends
    before they do, so no ancestor would wait for them.

    ``seconds`` is None where that cannot be counted in full: no
    subreaper (not Linux), or a descendant still running ``grace``
    seconds after the block (its pids in ``running``; it is left alone).
    """

    def __init__(self, grace=10.0):
        self.grace = grace
        self.seconds = None
        self.running = []

    def __enter__(self):
        self._before_children = set(children_of(os.getpid()))
        self._on = _subreaper(True)
        self._before = _children_cpu()
        return self

    def __exit__(self, *exc_info):
        if not self._on:
            return False
        try:
            self.running = self._reap()
            if not self.running:
                self.seconds = round(_children_cpu() - self._before, 1)
        finally:
            _subreaper(False)
        return False

    def _reap(self):
        """Wait for the orphans that came to this process; the pids of
        those still running after ``grace`` seconds."""
        deadline = time.monotonic() + self.grace
        while True:
            left = {pid: state for pid, state in
                    children_of(os.getpid()).items()
                    if pid not in self._before_children}
            for pid, state in left.items():
                if state in ('Z', 'X'):
                    try:
                        os.waitpid(pid, 0)
                    except ChildProcessError:
                        pass
            running = sorted(pid for pid, state in left.items()
                             if state not in ('Z', 'X'))
            if not running or time.monotonic() > deadline:
                return running
            time.sleep(0.1)
