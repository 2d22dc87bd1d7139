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

"""Service processes forked from a warm template process (a zygote).

A cloud start is CPU-bound: on 2 cores its five service processes used
about 28 CPU-seconds until the cloud was ready (/proc/PID/stat), and
importing their upstream code alone takes about 13 of them (the quiet
import times `conformance bench` measures). A mutant run starts some
forty clouds of the same code, so each OS process of the cloud gets one
zygote per command: it runs its descriptors' ``prepare_process``
(threading or eventlet mode), imports their ``imports`` once, and then
forks one service process per cloud start. The fork runs ``serve.run``,
which is what a fresh interpreter ran before there were zygotes, in a
session of its own, with its output in the cloud's ``<process>.out``.

What a fork may not inherit is checked, not assumed: the zygote refuses
to fork if importing started a thread (a fork keeps only the calling
thread), and it reads and writes its pipes with the unpatched os
functions, so eventlet's hub (senlin) is never created before a fork.

Protocol, one line each, over the zygote's stdin and a reply pipe (its
fd number in CONFORMANCE_ZYGOTE_REPLY_FD):
    zygote  -> ready | error <message>
    launcher -> <spec file>\t<output file>
    zygote  -> <pid>
"""

import os
import signal
import subprocess
import sys
import threading

# Captured before any service's prepare_process can patch os (eventlet).
_read, _write, _fork = os.read, os.write, os.fork
REPLY_FD_VARIABLE = 'CONFORMANCE_ZYGOTE_REPLY_FD'


class ZygoteError(Exception):
    """The zygote could not prepare or fork; the message says where to
    look."""


class ForkedProcess(object):
    """The part of subprocess.Popen the launcher uses, for a process the
    zygote forked: it is the zygote's child, so only /proc tells whether
    it still runs (the zygote reaps it: its exit status is lost, and its
    .out file says why it stopped)."""

    def __init__(self, pid):
        self.pid = pid
        self.returncode = None

    def poll(self):
        if self.returncode is None and not alive(self.pid):
            self.returncode = 'unknown'
        return self.returncode


def alive(pid):
    """True if ``pid`` runs: it exists and a thread of it is not a zombie.

    Its first thread alone is not enough: in an exit, it can be a zombie
    while the process's other threads are still being torn down, and the
    process's files and sockets close only when the last thread ends: a
    cloud started on the same ports before then finds a port taken.
    """
    try:
        threads = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return False
    for tid in threads:
        try:
            with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                state = f.read().rsplit(')', 1)[1].split()[0]
        except OSError:
            continue  # that thread has just ended
        if state not in ('Z', 'X'):
            return True
    return False


class Zygote(object):
    """The launcher's end of one zygote. Started at once (it imports while
    the caller goes on); ``spawn`` waits for it to be ready."""

    def __init__(self, process, log_path, argv=None):
        self.process = process
        self.log_path = log_path
        self._lock = threading.Lock()
        self._ready = False
        reply_r, reply_w = os.pipe()
        with open(log_path, 'wb') as log:
            self._proc = subprocess.Popen(
                argv or [sys.executable, '-m', 'conformance_tests.cloud.serve',
                         '--zygote', process],
                stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT,
                pass_fds=(reply_w,), env=_child_env(reply_w))
        os.close(reply_w)
        self._replies = os.fdopen(reply_r, 'r')

    def _reply(self):
        line = self._replies.readline()
        if not line:
            raise ZygoteError('the %s zygote exited; see %s' % (
                self.process, self.log_path))
        if line.startswith('error '):
            raise ZygoteError('the %s zygote: %s; see %s' % (
                self.process, line[6:].strip(), self.log_path))
        return line.strip()

    def spawn(self, spec_file, out_path):
        """Fork a service process serving ``spec_file``."""
        with self._lock:
            if not self._ready:
                self._reply()  # 'ready', or an error after its imports
                self._ready = True
            try:
                self._proc.stdin.write(('%s\t%s\n' % (spec_file, out_path)
                                        ).encode())
                self._proc.stdin.flush()
            except BrokenPipeError:
                raise ZygoteError('the %s zygote exited; see %s' % (
                    self.process, self.log_path))
            return ForkedProcess(int(self._reply()))

    def close(self):
        """Stop the zygote; what it forked runs on."""
        end_warm_process(self._proc)
        self._replies.close()


def tempest_fork_refusal(child_would):
    """For a warm process whose forks read a tempest.conf each (a mutant
    run's inventories and test workers): Tempest's plugin scan done once
    here, then None, or why a fork must not happen, in one line.
    ``child_would``: what a child would do with a tempest.conf read
    before the fork."""
    from tempest import config
    from tempest.test_discover import plugins
    # The entry-point scan and the plugins' classes; no option is read.
    plugins.TempestTestPluginManager()
    if config.CONF._config is not None:
        return 'importing read a tempest.conf: a child would %s' % (
            child_would)
    threads = len(os.listdir('/proc/self/task'))
    if threads > 1:
        return 'importing started %d threads; a fork would lose them' % (
            threads - 1)
    return None


def end_warm_process(proc, timeout=10):
    """Close the stdin of a warm process (a zygote, and the inventory's
    and test workers' of a mutant run), which ends it, and wait; kill it
    if it has not ended within ``timeout`` seconds."""
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _child_env(reply_fd):
    return dict(os.environ, PYTHONUNBUFFERED='1',
                **{REPLY_FD_VARIABLE: str(reply_fd)})


class Zygotes(object):
    """One zygote per OS process of the cloud, for one command."""

    def __init__(self, processes, log_dir):
        os.makedirs(log_dir, exist_ok=True)
        self._zygotes = {}
        try:
            for process in processes:
                self._zygotes[process] = Zygote(
                    process, os.path.join(log_dir, 'zygote-%s.log' % process))
        except BaseException:
            self.close()
            raise

    def spawn(self, process, spec_file, out_path):
        return self._zygotes[process].spawn(spec_file, out_path)

    def close(self):
        for zygote in self._zygotes.values():
            zygote.close()
        self._zygotes = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# -- the zygote's side -------------------------------------------------------

def serve_requests(prepare, run_child):
    """The zygote: ``prepare()``, say ready, then fork ``run_child(spec,
    out)`` for every request until stdin closes."""
    reply_fd = int(os.environ.pop(REPLY_FD_VARIABLE))
    try:
        prepare()
        # The kernel's count: eventlet's patched threading module (senlin)
        # would only list green threads.
        threads = len(os.listdir('/proc/self/task'))
        if threads > 1:
            raise ZygoteError('importing started %d threads; a fork would '
                              'lose them' % (threads - 1))
    except Exception as e:
        _write(reply_fd, ('error %s\n' % str(e).splitlines()[0]).encode())
        raise
    # Children are reaped by the kernel; each child restores the default.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    _write(reply_fd, b'ready\n')
    for line in _lines(0):
        spec_file, out_path = line.split('\t')
        pid = _fork()
        if pid == 0:
            _become_service(reply_fd, out_path)
            code = 1
            try:
                run_child(spec_file)
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:
                import traceback
                traceback.print_exc()
            finally:
                os._exit(code)
        _write(reply_fd, b'%d\n' % pid)
    # Stdin closed: leave without the interpreter's teardown of every
    # imported module (seconds, and nothing to flush).
    os._exit(0)


def _become_service(reply_fd, out_path):
    """In the fork: a session of its own, output to its .out file, and
    nothing of the zygote's protocol."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    for fd in (out, null, reply_fd):
        os.close(fd)


def _lines(fd):
    pending = b''
    while True:
        chunk = _read(fd, 4096)
        if not chunk:
            return
        pending += chunk
        while b'\n' in pending:
            line, pending = pending.split(b'\n', 1)
            yield line.decode()
