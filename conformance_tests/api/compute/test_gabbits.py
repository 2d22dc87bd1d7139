"""Compute conformance tests: one test per YAML file in gabbits/compute.

Seed 000 (server-group policy + rules, max_server_per_host, compute
2.64): the API contract. The scheduling behaviour is proven by
conformance_tests/scenario/test_server_group_spread.py.
"""

from conformance_tests.api.compute import base
from conformance_tests.common import gabbi_runner


@gabbi_runner.generate_tests
class ComputeGabbiTest(base.ComputeGabbiBase):
    """Generated: test_<file name> for every gabbits/compute/*.yaml."""
