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

"""The preflight as a run's first step (`conformance run --tempest-conf`)
and as `conformance preflight`: check, judge the series, keep the
findings in the workdir, say a short summary."""

from conformance_tests.common import ui
from conformance_tests import preflight
from conformance_tests.preflight import series


class GateError(Exception):
    """The cloud or the conf is not fit, or the findings cannot be kept:
    str() is the one line to show."""


def run(conf_path, workdir, say=ui.say, release=None):
    """Check the cloud of ``conf_path``; write <workdir>/preflight.json
    (also on failure) and say a short summary.

    ``release``: the series whose expectations will judge the run (its
    --release; None: today's), said beside the series the cloud looks
    like, with a warning when they differ.

    Returns the findings (a dict with no secret); raises GateError when
    the cloud or the conf is not fit.
    """
    try:
        findings = preflight.check(conf_path)
    except preflight.PreflightError as e:
        try:
            preflight.write(e.findings, workdir)
        except OSError:
            pass    # the cloud's problem is the one to report
        raise GateError(str(e))
    series.judge(findings.get('series'), release)
    try:
        path = preflight.write(findings, workdir)
    except OSError as e:
        raise GateError('--workdir %s: cannot write %s (%s)' % (
            workdir, preflight.FILENAME, e.strerror))
    for line in preflight.summary(findings):
        say('preflight: %s' % line)
    say('preflight: findings in %s' % path)
    return findings
