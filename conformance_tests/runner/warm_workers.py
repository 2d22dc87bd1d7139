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

"""Test workers forked from one warm process, for a mutant run.

A mutant run starts Tempest once a mutant (its cloud is another cloud),
and stestr starts each worker as a new interpreter that imports Tempest,
its clients and the plugin before it discovers the tests: about 0.5 s of
CPU a worker, paid again for every mutant, for the same modules. Tempest
has no worker that outlives a run, so this module keeps, for one mutant
run, a process that has imported all that once (nothing that reads a
tempest.conf), and `tempest run` is started with PYTHON set to
runner/worker_python.py, which stestr honours: each worker it starts hands
its arguments, directory, environment and standard streams to this
process and is answered by a fork that runs `stestr.subunit_runner.run`
with them. The worker then discovers the tests, reads the mutant cloud's
tempest.conf and runs its tests as a fresh interpreter would; the run is
still `tempest run` with stestr's workers, worker file and stream.

What a fork may not inherit is checked, not assumed: the warm process
refuses to serve if its imports read a tempest.conf or started a thread,
and each fork seeds its own random numbers (Tempest's random names would
otherwise repeat from worker to worker).

Protocol: the warm process prints `ready` (or `error <message>`) on its
stdout, then accepts connections on a Unix socket until its stdin
closes. A connection (worker_python.py's) sends its three standard
streams (SCM_RIGHTS) with a 4-byte length, then that many bytes of JSON
{argv, cwd, env}; the fork answers `pid <n>` and, when the worker ends,
`exit <code>`.
"""

import json
import os
import pkgutil
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading

from conformance_tests.cloud import zygote
from conformance_tests.runner import worker_python


# Where the warm process started: `python -m` made it sys.path[0].
_STARTED_IN = os.getcwd()


class WarmWorkersError(Exception):
    """The warm process could not start: one line."""


# Modules a test worker imports whatever the tests; none reads a
# tempest.conf on import (checked in _prepare). Not the worker's own
# module (stestr.subunit_runner.run), which the fork runs as __main__.
PRELOADED = ('stestr.subunit_runner.program', 'subunit', 'testtools',
             'fixtures', 'tempest.test', 'tempest.clients',
             'tempest.common.waiters', 'tempest.lib.common.utils.data_utils',
             'tempest.lib.decorators', 'oslo_concurrency.lockutils')
# Linux's limit on a Unix socket's path is 108 bytes; 'socket' and the
# slash take 7.
SOCKET_DIR_MAX = 100
# Our own packages the tests import (not the tests: they read CONF).
PRELOADED_PACKAGES = ('conformance_tests.services', 'conformance_tests.common')


def _prepare():
    import importlib
    for name in PRELOADED:
        importlib.import_module(name)
    for package_name in PRELOADED_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__,
                                          package_name + '.'):
            importlib.import_module(info.name)
    refusal = zygote.tempest_fork_refusal('test that cloud')
    if refusal:
        raise WarmWorkersError(refusal)


def _receive(conn):
    """(worker_python.py's three fds, its request) from one connection."""
    header, fds, _, _ = socket.recv_fds(conn, 4, 3)
    if len(header) != 4 or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        raise ValueError('a connection without the three streams')
    size = struct.unpack('!I', header)[0]
    body = b''
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            raise ValueError('a connection closed mid-request')
        body += chunk
    return fds, json.loads(body)


def _run_worker(conn, fds, request):
    """In the fork: become the worker worker_python.py stands for; never
    returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request['cwd'])
        if sys.path and sys.path[0] == _STARTED_IN:
            # `python -m` puts its directory first, as it did for the
            # warm process: the worker's is the one it was started in.
            sys.path[0] = os.getcwd()
        os.environ.clear()
        os.environ.update(request['env'])
        import random
        import tempfile as tempfiles
        random.seed()  # else every fork repeats the warm process's names
        tempfiles.tempdir = None  # read again from this worker's TMPDIR
        conn.sendall(b'pid %d\n' % os.getpid())
        argv = request['argv']
        if argv[:1] != ['-m'] or len(argv) < 2:
            raise ValueError('not a `python -m MODULE` worker: %s' % argv)
        import runpy
        sys.argv = [argv[1]] + argv[2:]
        try:
            runpy.run_module(argv[1], run_name='__main__', alter_sys=True)
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (
                0 if e.code is None else 1)
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            try:
                conn.sendall(b'exit %d\n' % code)
            finally:
                os._exit(code)


def serve(socket_path):
    try:
        _prepare()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(socket_path)
        server.listen(16)
    except Exception as e:
        print('error %s' % (str(e).splitlines() or [type(e).__name__])[0],
              flush=True)
        return 1
    # The kernel reaps the forks: each reports its own exit itself.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print('ready', flush=True)
    while True:
        readable, _, _ = select.select([server, sys.stdin], [], [])
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 1):
            break  # the run is over
        if server not in readable:
            continue
        conn, _ = server.accept()
        try:
            fds, request = _receive(conn)
        except (OSError, ValueError) as e:
            sys.stderr.write('warm workers: %s\n' % e)
            conn.close()
            continue
        if os.fork() == 0:
            server.close()
            _run_worker(conn, fds, request)
        for fd in fds:
            os.close(fd)
        conn.close()
    # No teardown of every imported module.
    os._exit(0)


class WarmWorkers(object):
    """The mutant run's end: started at once (it imports while the first
    cloud starts); ``env()`` waits for it and gives what a `tempest run`
    needs to take its workers from it."""

    def __init__(self, directory):
        """The socket and the log in ``directory`` (the socket in a private
        directory of its own under /tmp where that path would be longer
        than a Unix socket's name may be)."""
        self._dir = os.path.join(directory, 'warm-workers')
        if len(self._dir) > SOCKET_DIR_MAX:
            self._dir = tempfile.mkdtemp(prefix='conformance-workers-')
        else:
            os.makedirs(self._dir, mode=0o700, exist_ok=True)
        self.socket_path = os.path.join(self._dir, 'socket')
        if os.path.exists(self.socket_path):
            os.unlink(self.socket_path)  # a killed run's
        log_path = os.path.join(directory, 'warm-workers.log')
        self._lock = threading.Lock()
        self._ready = False
        with open(log_path, 'wb') as log:
            self._proc = subprocess.Popen(
                [sys.executable, '-m', 'conformance_tests.runner.warm_workers',
                 self.socket_path], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=log, text=True)
        self.log_path = log_path

    def env(self):
        """PYTHON for stestr, and where worker_python.py finds this process. {}
        (workers start as usual) where a path has a blank: the shell
        stestr starts workers with would split PYTHON there."""
        launcher = os.path.abspath(worker_python.__file__)
        if any(c.isspace() for c in sys.executable + launcher):
            return {}
        with self._lock:
            if not self._ready:
                line = self._proc.stdout.readline()
                if not line.startswith('ready'):
                    raise WarmWorkersError('the warm worker process: %s; see '
                                           '%s' % (line[6:].strip() or 'it '
                                                   'exited', self.log_path))
                self._ready = True
        return {'PYTHON': '%s -S %s' % (sys.executable, launcher),
                worker_python.SOCKET_VARIABLE: self.socket_path}

    def close(self):
        zygote.end_warm_process(self._proc)
        self._proc.stdout.close()
        for name in os.listdir(self._dir):
            os.unlink(os.path.join(self._dir, name))
        os.rmdir(self._dir)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == '__main__':
    sys.exit(serve(sys.argv[1]))
