"""What a run covers: the capabilities a --seed/--capability choice
selects from guidelines/, and the tests behind them."""

from conformance_tests.report import guidelines
from conformance_tests.runner import tempest_runner


class ScopeError(Exception):
    """A choice that selects nothing known: one line."""


class Scope(object):
    """``seeds``, ``capability_ids``: the choice (None: every one)."""

    def __init__(self, seeds=None, capability_ids=None):
        try:
            self.capabilities = guidelines.load_all()
            self.ids = guidelines.select(self.capabilities, seeds,
                                         capability_ids)
        except guidelines.GuidelineError as e:
            raise ScopeError(str(e))
        self.test_ids = guidelines.test_ids(self.capabilities, self.ids)

    def regex(self, ids=None):
        """The Tempest regex of the scope's tests (or of ``ids``')."""
        try:
            return tempest_runner.selection_regex(
                guidelines.test_ids(self.capabilities, ids or self.ids))
        except tempest_runner.RunError as e:
            raise ScopeError(str(e))
