"""The APIs the suite tests, one declaration each (see api.py).

Adding an API is: its package under services/<api>/v<N>/ binding ``API``,
and its module in REGISTERED below. The plugin, the cleanup plan and the
report iterate over this list and name no API.
"""

import importlib

# The one registration point. Order is only the order of registration;
# the cleanup plan orders its steps by their stage.
REGISTERED = (
    'conformance_tests.services.identity',
    'conformance_tests.services.compute.v2',
    'conformance_tests.services.placement.v1',
    'conformance_tests.services.clustering.v1',
    'conformance_tests.services.reservation.v1',
)


def all(modules=None):
    """Every registered API's declaration.

    (Shadows the builtin inside this module: nothing here uses it.)
    ``modules`` defaults to REGISTERED as it is at call time.
    """
    return [importlib.import_module(m).API
            for m in (REGISTERED if modules is None else modules)]


def guideline_files():
    """Capability files the APIs keep beside their packages."""
    return [path for api in all() for path in api.guidelines]
