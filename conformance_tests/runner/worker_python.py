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

"""The Python that stestr starts for a mutant run's test worker.

stestr starts each worker as ``${PYTHON} -m stestr.subunit_runner.run
discover ...`` when PYTHON is set (Tempest keeps a PYTHON it finds). A
mutant run sets PYTHON to ``<python> -S <this file>``: this script hands
its arguments, working directory, environment and standard streams to
the warm process of runner/warm_workers.py, which forks the worker with
Tempest already imported, and exits with the worker's exit code. The
worker is the same module with the same arguments, streams and
environment; only its interpreter's start is not paid again.

Standard library only, run without site (-S): it is on the path of every
test worker of the run, so it must cost next to nothing.
"""

import json
import os
import signal
import socket
import struct
import sys

SOCKET_VARIABLE = 'CONFORMANCE_WARM_WORKERS'


def _lines(conn):
    # cloud/zygote.py reads its lines the same way from a pipe; this file
    # runs without site and imports nothing of the project.
    pending = b''
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            return
        pending += chunk
        while b'\n' in pending:
            line, pending = pending.split(b'\n', 1)
            yield line.decode()


def main(argv):
    request = json.dumps({'argv': argv, 'cwd': os.getcwd(),
                          'env': dict(os.environ)}).encode()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(os.environ[SOCKET_VARIABLE])
        socket.send_fds(conn, [struct.pack('!I', len(request))], [0, 1, 2])
        conn.sendall(request)
    except (KeyError, OSError) as e:
        sys.stderr.write('worker_python.py: no warm worker process (%s: '
                         '%s)\n' % (type(e).__name__, e))
        return 1

    worker = []  # its pid, once the warm process has forked it

    def forward(signum, frame):
        if worker:
            os.kill(worker[0], signum)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, forward)
    for line in _lines(conn):
        word, _, value = line.partition(' ')
        if word == 'pid':
            worker.append(int(value))
        elif word == 'exit':
            return int(value)
    sys.stderr.write('worker_python.py: the warm worker ended without an exit '
                     'code\n')
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
