"""Entry point of one embedded-cloud service process.

    python -m conformance_tests.cloud.serve SPEC.json

The launcher writes SPEC.json (service name, port, config file, mutant) and
starts one such process per service: keystone and the services built on
oslo.config's global CONF cannot share a process.
"""

import importlib
import json
import logging
import sys
import traceback


# process name -> module whose run(spec) serves until SIGTERM
PROCESS_MODULES = {
    'keystone': 'conformance_tests.cloud.keystone_app',
    'placement': 'conformance_tests.cloud.placement_app',
    'nova': 'conformance_tests.cloud.nova_app',
}


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
        module = importlib.import_module(PROCESS_MODULES[spec['process']])
        module.run(spec)
    except Exception:
        # The services' own logging set-up may swallow this; the launcher
        # points the user at <process>.out, so it must be there.
        traceback.print_exc(file=sys.__stderr__)
        sys.exit(1)


if __name__ == '__main__':
    main()
