"""Real placement, built in this process, optionally with one mutant."""

import os


def build_app(spec):
    # placement reads OS_PLACEMENT_CONFIG_DIR when it builds its config.
    os.environ['OS_PLACEMENT_CONFIG_DIR'] = os.path.dirname(
        spec['config_file'])
    from placement import wsgi

    from conformance_tests.cloud import mutants
    mutants.apply(spec.get('mutant'), 'placement')
    return wsgi.init_application()
