"""Placement conformance tests: one test per YAML file in gabbits/placement.

Seed 003 (forbidden aggregates, member_of=!…, placement 1.32). Each file's
meta names the spec rule it proves; guidelines/ maps files to capabilities
by idempotent id.
"""

from conformance_tests.api.placement import base
from conformance_tests.common import gabbi_runner


@gabbi_runner.generate_tests
class PlacementGabbiTest(base.PlacementGabbiBase):
    """Generated: test_<file name> for every gabbits/placement/*.yaml."""
