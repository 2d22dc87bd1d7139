"""Real placement, built in this process, optionally with one mutant."""

import os

from conformance_tests.cloud import wsgi_server


def build_app(spec):
    # placement reads OS_PLACEMENT_CONFIG_DIR when it builds its config.
    os.environ['OS_PLACEMENT_CONFIG_DIR'] = os.path.dirname(
        spec['configs']['placement'])
    from placement import wsgi

    from conformance_tests.cloud import mutants
    mutants.apply(spec.get('mutant'), 'placement')
    return wsgi.init_application()


def run(spec):
    """placement alone in its process (a cloud without nova)."""
    wsgi_server.serve(build_app(spec), spec['host'],
                      spec['ports']['placement'])
