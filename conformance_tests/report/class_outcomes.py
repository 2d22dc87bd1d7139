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

"""The tests a class-level outcome of a stream stands for.

A class that skips in skip_checks (a service disabled, an account not
admin) or fails in its resource set-up reports once, as
``setUpClass (module.Class)``, and none of its tests reports at all. The
stream cannot say which idempotent ids that class holds. `conformance
run` knows: its workspace keeps the tests it asked Tempest for. A plain
`tempest run`'s stream (a gate's, a vendor's) comes without that list,
so Tempest's own listing of the installed plugin stands for it: every
test of every class, of which those that guidelines/ claim are given
their class's outcome (results.attribute_class_outcomes, as `conformance
run` does). A test that no class outcome covers and that has no result
stays a test that did not run.
"""

import os

from conformance_tests.cloud import client_files
from conformance_tests.report import guidelines
from conformance_tests.report import results as results_mod
from conformance_tests.runner import tempest_runner

#: Under the workdir: the Tempest workspace that lists the plugin's tests
#: for a stream that brought no list of its own.
LISTING_WORKSPACE = 'listing-workspace'


class ListingError(Exception):
    """The plugin's tests cannot be listed: one line."""


def fixture_owners(results):
    """The classes (or modules) whose set-up reported for them in
    ``results``, e.g. 'conformance_tests.api.x.SomeTest'."""
    owners = []
    for entry in results.values():
        match = results_mod.FIXTURE.match(entry['name'] or '')
        if match:
            owners.append(match.group('owner'))
    return owners


def claimed(test_names, capabilities):
    """The names of ``test_names`` whose idempotent id a capability of
    guidelines/ names: the tests a report judges. Others (none, while
    pep8's id check holds) never get a result they did not report."""
    known = set(guidelines.test_ids(
        capabilities, [c['id'] for c in capabilities]))
    return [n for n in test_names if results_mod.idempotent_id(n) in known]


def plugin_tests(workdir):
    """Tempest's names of every test of the installed plugin, listed in
    a workspace of the workdir's own (made by `tempest init` once), as
    `conformance run` lists them (tempest_runner.list_tests)."""
    workspace = os.path.join(workdir, LISTING_WORKSPACE)
    try:
        os.makedirs(workdir, exist_ok=True)
        client_files.ensure_workspace(workdir, workspace)
        return tempest_runner.list_tests(workspace)
    except (client_files.WorkspaceError, tempest_runner.RunError,
            OSError) as e:
        raise ListingError(
            'cannot tell which tests the class-level outcomes of the stream '
            'stand for: %s' % str(e).splitlines()[0])


def attribute(results, capabilities, workdir, selection=None):
    """``results`` with each class-level outcome given to the tests of its
    class, as `conformance run` gives it. ``selection``: the tests the
    run asked for (a `conformance run`'s workspace keeps them), else
    Tempest lists the plugin's tests, only when the stream has such an
    outcome. Raises ListingError."""
    if not fixture_owners(results):
        return results
    if selection is None:
        selection = claimed(plugin_tests(workdir), capabilities)
    return results_mod.attribute_class_outcomes(results, selection)
