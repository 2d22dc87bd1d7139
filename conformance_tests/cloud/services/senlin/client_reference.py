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

"""The spec reference of python-senlinclient's `cluster policy` commands.

python-senlinclient 3.1.0 (its last release) passes plain functions as
column formatters (``senlin_utils.json_formatter`` for a policy's spec);
osc-lib >= 4 takes only cliff ``FormattableColumn`` classes and refuses
anything else with "Invalid formatter provided.", so `openstack cluster
policy create` and `show` exit 1 after the cloud has answered. The
reference wraps each plain function the client's policy commands hand
osc-lib into a ``FormattableColumn`` that prints what the function
returns: what the client would have to do on osc-lib >= 4, and nothing
else.

A client is no service of the embedded cloud, so the reference is not
applied in a service's process (its service, ``python-senlinclient``, is
none the launcher runs). In the spec-reference profile only, senlin's
descriptor writes an `openstack` launcher (``write_launcher``) that
applies it before openstackclient's own ``main`` and names it in
tempest.conf as ``[conformance] openstack_cli``; every other profile, and
every cloud not embedded, runs the installed `openstack` untouched.
"""

import functools
import os
import sys

from conformance_tests.cloud.mutants import reference

SERVICE = 'python-senlinclient'
CAP = 'clustering.affinity.'
LAUNCHER = 'openstack-senlinclient-reference'


def _columns(formatters):
    """``formatters`` with each plain callable wrapped as a
    FormattableColumn class; classes and partials of them kept."""
    from cliff import columns

    def is_column(formatter):
        target = (formatter.func if isinstance(formatter, functools.partial)
                  else formatter)
        return isinstance(target, type) and issubclass(
            target, columns.FormattableColumn)

    wrapped = {}
    for field, formatter in (formatters or {}).items():
        if callable(formatter) and not is_column(formatter):
            formatter = type('SenlinColumn', (columns.FormattableColumn,), {
                'human_readable': (lambda self, f=formatter:
                                   f(self._value))})
        wrapped[field] = formatter
    return wrapped


class _Utils(object):
    """osc_lib.utils as senlinclient's policy module sees it: the same
    module, with the two property readers taking its formatters."""

    def __init__(self, utils):
        self._utils = utils

    def __getattr__(self, name):
        return getattr(self._utils, name)

    def get_dict_properties(self, item, fields, mixed_case_fields=None,
                            formatters=None):
        return self._utils.get_dict_properties(
            item, fields, mixed_case_fields=mixed_case_fields or [],
            formatters=_columns(formatters))

    def get_item_properties(self, item, fields, mixed_case_fields=None,
                            formatters=None):
        return self._utils.get_item_properties(
            item, fields, mixed_case_fields=mixed_case_fields or [],
            formatters=_columns(formatters))


@reference('senlinclient-formatter-columns', SERVICE,
           capabilities=(CAP + 'cli-client',),
           rule='`openstack cluster policy create` and `cluster policy '
                'show` print the policy: python-senlinclient\'s plain-'
                'function formatters handed to osc-lib as FormattableColumn '
                'classes')
def senlinclient_formatter_columns():
    from senlinclient.v1 import policy
    if not isinstance(policy.utils, _Utils):
        policy.utils = _Utils(policy.utils)


def launcher_text(python=None):
    """An `openstack` that applies the reference, then is openstackclient's
    own command."""
    return (
        '#!%s\n'
        '"""`openstack` with the spec reference of python-senlinclient\n'
        '(conformance_tests/cloud/services/senlin/client_reference.py);\n'
        'written for the spec-reference profile only."""\n'
        'import sys\n'
        'from conformance_tests.cloud.services.senlin import '
        'client_reference\n'
        'client_reference.senlinclient_formatter_columns()\n'
        'from openstackclient.shell import main\n'
        'sys.exit(main())\n' % (python or sys.executable))


def write_launcher(directory):
    """Write the launcher into ``directory``; return its path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, LAUNCHER)
    with open(path, 'w') as f:
        f.write(launcher_text())
    os.chmod(path, 0o755)
    return path
