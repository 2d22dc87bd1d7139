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

"""Inventories taken by forks of one warm process, for a mutant run.

A mutant run takes two inventories a mutant, each in a process of its
own: the listing loads Tempest's configuration from the mutant cloud's
tempest.conf, and that configuration is global to a process. Of such a
process's 1.0 s on a keystone+placement cloud, about 0.7 s was starting
the interpreter and importing Tempest, its plugins and its clients
(2026-11-29, 2 cores). So each slot of a mutant run keeps one process
that has imported all that once, and forks a child per inventory. The
child runs exactly what `python -m conformance_tests.inventory.listing`
runs (listing.main): it reads the tempest.conf, authenticates and lists,
so what an inventory finds does not depend on how it was started.

Fork safety is checked, not assumed: the warm process refuses to serve
if its imports read a tempest.conf (a child would list another cloud's
objects) or started a thread (a fork keeps only the calling thread).

Protocol, one line each, over the warm process's stdin and stdout:
    forker -> ready | error <message>
    caller -> <tempest.conf>\t<out.json>\t<file for the child's stderr>
    forker -> <the child's exit code>
"""

import os
import subprocess
import sys
import threading

from conformance_tests.cloud import zygote


class ForkerError(Exception):
    """The warm process could not start or stopped: one line."""


def _prepare():
    """Everything a listing imports, and Tempest's plugin scan, without
    reading any tempest.conf."""
    from tempest import clients  # noqa: F401
    from tempest.common import credentials_factory  # noqa: F401

    from conformance_tests.cleanup import context  # noqa: F401
    from conformance_tests.cleanup import names
    from conformance_tests.inventory import listing  # noqa: F401

    # Read from the source; the same for every cloud.
    names.test_class_names()
    refusal = zygote.tempest_fork_refusal('list that cloud')
    if refusal:
        raise ForkerError(refusal)


def _child(conf, out, errors):
    """In the fork: listing.main with stderr to ``errors``; never
    returns."""
    code = 1
    try:
        fd = os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 2)
        os.close(fd)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        sys.stderr = os.fdopen(2, 'w')
        from conformance_tests.inventory import listing
        code = listing.main([conf, out])
    except BaseException as e:
        sys.stderr.write('inventory: %s: %s\n' % (type(e).__name__, e))
    finally:
        try:
            sys.stderr.flush()  # os._exit flushes nothing
        finally:
            os._exit(code if isinstance(code, int) else 1)


def serve(stdin=sys.stdin, stdout=sys.stdout):
    try:
        _prepare()
    except Exception as e:
        stdout.write('error %s\n' % (str(e).splitlines() or [
            type(e).__name__])[0])
        stdout.flush()
        return 1
    stdout.write('ready\n')
    stdout.flush()
    for line in stdin:
        conf, out, errors = line.rstrip('\n').split('\t')
        pid = os.fork()
        if pid == 0:
            _child(conf, out, errors)
        _, status = os.waitpid(pid, 0)
        stdout.write('%d\n' % os.waitstatus_to_exitcode(status))
        stdout.flush()
    # stdin closed: no teardown of every imported module.
    os._exit(0)


class Forker(object):
    """The caller's end: started at once (it imports while the caller
    goes on); ``take`` waits for it. One inventory at a time."""

    def __init__(self):
        self._lock = threading.Lock()
        self._ready = False
        self._proc = subprocess.Popen(
            [sys.executable, '-m', 'conformance_tests.inventory.forker'],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)

    def _reply(self):
        line = self._proc.stdout.readline()
        if not line:
            raise ForkerError('the inventory process exited (code %s)' % (
                self._proc.poll(),))
        if line.startswith('error '):
            raise ForkerError('the inventory process: %s' % line[6:].strip())
        return line.strip()

    def take(self, conf, out, errors):
        """The exit code of listing.main([conf, out]), its stderr in
        ``errors``."""
        with self._lock:
            if self._proc.stdin.closed:
                raise ForkerError('the inventory process was closed')
            if not self._ready:
                self._reply()  # 'ready'
                self._ready = True
            try:
                self._proc.stdin.write('%s\t%s\t%s\n' % (conf, out, errors))
                self._proc.stdin.flush()
            except BrokenPipeError:
                raise ForkerError('the inventory process exited')
            return int(self._reply())

    def close(self):
        zygote.end_warm_process(self._proc)
        self._proc.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == '__main__':
    sys.exit(serve())
