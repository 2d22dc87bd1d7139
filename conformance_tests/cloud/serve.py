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

"""Entry point of one embedded-cloud service process.

    python -m conformance_tests.cloud.serve --zygote PROCESS

The launcher writes a SPEC.json (process name, ports, config, mutant)
for each distinct ``process`` of the descriptors (keystone and the
services built on oslo.config's global CONF cannot share one) and asks
that process's zygote (cloud/zygote.py) to fork a service process for
it. The zygote has run every descriptor's ``prepare_process`` and
imported their upstream modules; the fork builds and serves each
descriptor, in start order, each listener on its own thread, and its
main thread waits for SIGTERM.
"""

import importlib
import json
import logging
import os
import shutil
import signal
import sys
import threading
import traceback

from conformance_tests.cloud import runtime
from conformance_tests.cloud import services
from conformance_tests.cloud import sqlite_pool
from conformance_tests.cloud import wsgi_server
from conformance_tests.cloud import zygote


def _descriptors(process, descriptors):
    mine = [d for d in descriptors if d.process == process]
    if not mine:
        raise RuntimeError('no service runs in process %r' % process)
    return mine


def prepare_process(process, descriptors):
    """What every cloud's process of this kind shares: the mode its
    services run in, then their upstream imports (the slow part)."""
    mine = _descriptors(process, descriptors)
    for service in mine:
        service.prepare_process()
    for service in mine:
        for module in service.imports:
            importlib.import_module(module)


def serve_process(proc, descriptors):
    sqlite_pool.install()
    for service in _descriptors(proc.process, descriptors):
        # Served as soon as built: a later service of the same process
        # (nova) may need an earlier one (placement) answering.
        for listener, app in service.build(proc).items():
            wsgi_server.start(app, proc.host,
                              proc.port(service.name, listener),
                              name='%s-%s' % (service.name, listener),
                              behind_front_door=bool(
                                  proc.settings.get('front_door')))


def _wait_for_sigterm():
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    while not stop.wait(0.5):
        pass


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] != '--zygote':
        sys.exit('usage: python -m conformance_tests.cloud.serve --zygote '
                 'PROCESS (the launcher starts it)')
    # The services parse sys.argv through oslo.config: give them none.
    sys.argv = sys.argv[:1]
    zygote.serve_requests(
        prepare=lambda: prepare_process(argv[1], services.all()),
        run_child=run)


def run(spec_file):
    """In a fork of the zygote: serve the cloud ``spec_file`` describes
    until SIGTERM."""
    with open(spec_file) as f:
        spec = json.load(f)
    logging.basicConfig(
        filename=spec['log_file'], level=logging.INFO,
        format=runtime.LOG_FORMAT)
    logging.getLogger(__name__).info('starting %s', spec['process'])
    tmp = runtime.private_tmp(spec['workdir'], spec['process'])
    try:
        serve_process(runtime.ProcessContext(spec), services.all())
    except Exception:
        # The services' own logging set-up may swallow this; the launcher
        # points the user at <process>.out, so it must be there.
        traceback.print_exc(file=sys.__stderr__)
        sys.exit(1)
    _wait_for_sigterm()
    # Nova's RPC and executor threads are not daemons and would keep the
    # process alive; every service's state is in SQLite committed per
    # request or in memory, so leave now (leaving nothing in TMPDIR).
    shutil.rmtree(tmp, ignore_errors=True)
    os._exit(0)


if __name__ == '__main__':
    main()
