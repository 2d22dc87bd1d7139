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

from conformance_tests.cloud import wsgi_server

APP_BUILDERS = {
    'keystone': 'conformance_tests.cloud.keystone_app',
    'placement': 'conformance_tests.cloud.placement_app',
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
    builder = importlib.import_module(APP_BUILDERS[spec['service']])
    app = builder.build_app(spec)
    logging.getLogger(__name__).info(
        'serving %s on %s:%s', spec['service'], spec['host'], spec['port'])
    wsgi_server.serve(app, spec['host'], spec['port'])


if __name__ == '__main__':
    main()
