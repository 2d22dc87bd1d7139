"""Entry point of one embedded-cloud service process.

    python -m conformance_tests.cloud.serve SPEC.json

The launcher writes SPEC.json (process name, ports, config, mutant) and
starts one such process per distinct ``process`` of the descriptors:
keystone and the services built on oslo.config's global CONF cannot share
one. Here every descriptor of this process prepares the process, then
each is built and served, in start order, each listener on its own
thread; the main thread waits for SIGTERM.
"""

import json
import logging
import os
import signal
import sys
import threading
import traceback

from conformance_tests.cloud import runtime
from conformance_tests.cloud import services
from conformance_tests.cloud import wsgi_server


def serve_process(proc, descriptors):
    mine = [d for d in descriptors if d.process == proc.process]
    if not mine:
        raise RuntimeError('no service runs in process %r' % proc.process)
    for service in mine:
        service.prepare_process(proc)
    for service in mine:
        # Served as soon as built: a later service of the same process
        # (nova) may need an earlier one (placement) answering.
        for listener, app in service.build(proc).items():
            wsgi_server.start(app, proc.host,
                              proc.port(service.name, listener),
                              name='%s-%s' % (service.name, listener))


def _wait_for_sigterm():
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    while not stop.wait(0.5):
        pass


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as f:
        spec = json.load(f)
    # The services parse sys.argv through oslo.config: give them none.
    sys.argv = sys.argv[:1]
    logging.basicConfig(
        filename=spec['log_file'], level=logging.INFO,
        format='%(asctime)s %(process)d %(levelname)s %(name)s %(message)s')
    logging.getLogger(__name__).info('starting %s', spec['process'])
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
    # request or in memory, so leave now.
    os._exit(0)


if __name__ == '__main__':
    main()
