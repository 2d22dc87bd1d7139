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

"""A run's verdicts, written and shown: report.json, report.md,
report.html and report.junit.xml in the workdir, the table on stdout.
`conformance run` publishes its run; `conformance report` publishes a
stream again."""

from conformance_tests.cloud import profiles
from conformance_tests.common import ui
from conformance_tests.report import build
from conformance_tests.report import files

#: A run's subunit stream, in its workdir.
SUBUNIT = 'results.subunit'


def publish(workdir, results, target, scope, allow_skips, duration=None,
            profile=profiles.DEFAULT, required=(), inventory=None,
            preflight=None, release=None, versions=None):
    """Judge ``results`` over ``scope`` (report/scope.py), write and show
    the report; return the exit status: 0 as expected, else 1.

    ``versions``: {distribution: version} of the embedded cloud (the
    matrix heads its column with them); ``preflight``: the findings of
    a vendor run's preflight."""
    caps = build.verdicts(scope.capabilities, results, profile,
                          scope=set(scope.ids), required=required,
                          release=release)
    summary = build.summarise(caps, results, target, allow_skips, duration,
                              required=required, inventory=inventory,
                              release=release)
    summary['profile'] = profile
    if versions:
        summary['versions'] = versions
    if preflight:
        summary['preflight'] = preflight
    paths = files.write(workdir, caps, summary)
    print(build.table(caps, summary), flush=True)
    ui.say('report: %s and %s%s' % (
        ', '.join(paths[:-1]), paths[-1],
        ' (%.0f s in all)' % duration if duration else ''))
    return 0 if summary['as_expected'] else 1
