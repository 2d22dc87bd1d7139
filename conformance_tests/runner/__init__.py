"""Tempest as the suite runs it: the selection, the worker plan, the
subunit stream read as it arrives (tempest_runner.py, worker_plan.py).
Used by `conformance run` and `mutants`, the bench and the peer check."""
