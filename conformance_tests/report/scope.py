#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.

"""What a run covers: the capabilities a --seed/--capability choice
selects from guidelines/, and the tests behind them."""

import re
import tempfile

from stestr.repository import file as stestr_file

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

    def load_list(self):
        """The scope's tests as Tempest lists them, one full name a line:
        the file ``tempest run --load-list`` takes (stestr compares the
        names verbatim, so they come from Tempest's own listing). A test
        of the scope that Tempest does not list is a ScopeError."""
        regex = self.regex()
        with tempfile.TemporaryDirectory(prefix='conformance-list-') as ws:
            # `tempest run` wants a workspace's stestr repository; a
            # throwaway one, not `tempest init`, which registers the
            # workspace in the user's ~/.tempest.
            stestr_file.RepositoryFactory().initialise(
                ws)
            try:
                names = tempest_runner.list_tests(ws, regex=regex)
            except tempest_runner.RunError as e:
                raise ScopeError(str(e))
        listed = set()
        for name in names:
            listed |= set(re.findall(r'[\[,]id-([0-9a-fA-F-]+)', name))
        missing = [t for t in self.test_ids if t not in listed]
        if missing:
            raise ScopeError('Tempest lists no test with id %s (of %d in '
                             'scope): is this plugin\'s installed copy '
                             'older than its guidelines?' % (
                                 ', '.join(missing), len(self.test_ids)))
        return names
