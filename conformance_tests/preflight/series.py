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

"""Which OpenStack series a cloud looks like, from what its APIs offer.

A vendor's cloud does not say its release; nova's maximum compute
microversion does, nearly: each nova release raises it or keeps it, so a
maximum names one series or two neighbours. Placement cannot help (1.39
from 2023.1 to today). The suite's expectations exist for the series of
the matrix (cloud/releases.py): a cloud judged by another series'
expectations, or older than the oldest of them, gets a warning that
names the ``--release`` to pass, never a silent verdict.

The table is read from nova's tags (nova/api/openstack/
api_version_request.py, _MAX_API_VERSION at each X.0.0 tag).
"""

from conformance_tests.cloud import releases
from conformance_tests.preflight import versions

#: (series, nova major, nova's maximum compute microversion), oldest first.
NOVA_MAXIMA = (
    ('zed', 26, '2.93'),
    ('2023.1', 27, '2.95'),
    ('2023.2', 28, '2.95'),
    ('2024.1', 29, '2.96'),
    ('2024.2', 30, '2.96'),
    ('2025.1', 31, '2.100'),
    ('2025.2', 32, '2.100'),
    ('2026.1', 33, '2.103'),
    ('2026.2', 34, '2.104'),
)


def of_maximum(maximum):
    """What a nova maximum microversion says: a dict with 'looks_like'
    (the series with exactly that maximum, oldest first), 'nearest' (the
    newest matrix series whose maximum is at or below it, or None), and
    'older_than_matrix' (below the oldest matrix series' maximum)."""
    value = versions.numbers(maximum)
    known = [(s, major, versions.numbers(m)) for s, major, m in NOVA_MAXIMA]
    looks_like = [s for s, _, m in known if m == value]
    in_matrix = [(s, m) for s, _, m in known if s in releases.SERIES]
    at_or_below = [s for s, m in in_matrix if value and m <= value]
    return {
        'nova_max_microversion': maximum,
        'looks_like': looks_like,
        'nova_majors': [major for s, major, _ in known if s in looks_like],
        'nearest': at_or_below[-1] if at_or_below else None,
        'older_than_matrix': bool(value) and value < in_matrix[0][1],
        'newer_than_known': bool(value) and value > known[-1][2],
        'older_than_known': bool(value) and value < known[0][2],
    }


def of_findings(findings):
    """of_maximum() for the compute endpoint preflight found, or None
    (compute not tested, or it names no microversion)."""
    for found in findings.get('services', ()):
        if found['type'] == 'compute' and found.get('microversions'):
            return of_maximum(found['microversions'][1])
    return None


def judge(series, release):
    """Add who judges (``release``: --release, None for today's series)
    to ``series`` (of_maximum()'s dict, or None) and return the warnings
    to show: a cloud judged by a series it does not look like, or older
    than every series the suite has expectations for."""
    judged = release or releases.CURRENT
    if series is None:
        return []
    series['judged_by'] = judged
    maximum = series['nova_max_microversion']
    warnings = []
    if series['older_than_matrix']:
        warnings.append(
            "nova's maximum microversion %s is older than %s, the oldest "
            "series the suite has expectations for: verdicts are judged by "
            "%s's and may be false where the cloud's series behaves "
            "otherwise" % (maximum, releases.SERIES[0], judged))
    elif series['newer_than_known']:
        pass    # a newer nova than the suite knows: today's series judges
    elif judged not in series['looks_like'] and \
            series['nearest'] != judged:
        warnings.append(
            "nova's maximum microversion %s is %s, but %s's expectations "
            "judge this run: pass %s" % (
                maximum, 'that of ' + _names(series) if series['looks_like']
                else 'of no nova release', judged, _suggest(series)))
    series['warnings'] = warnings
    return warnings


def describe(series):
    """One line for people."""
    maximum = series['nova_max_microversion']
    if series['looks_like']:
        text = "nova's maximum microversion %s: %s (nova %s)" % (
            maximum, _names(series),
            ' or '.join(str(m) for m in series['nova_majors']))
    elif series['newer_than_known']:
        text = "nova's maximum microversion %s: newer than %s" % (
            maximum, NOVA_MAXIMA[-1][0])
    elif series['older_than_known']:
        text = "nova's maximum microversion %s: older than %s" % (
            maximum, NOVA_MAXIMA[0][0])
    else:
        text = "nova's maximum microversion %s: no nova release has it " \
               "(a patched nova?)" % maximum
    if series.get('judged_by'):
        text += "; judged by %s's expectations" % series['judged_by']
    return text


def _suggest(series):
    """The --release to pass: every matrix series the cloud looks like
    (nova 31 and 32 share 2.100: only the cloud's operator knows which
    it runs), else the newest matrix series below it."""
    mine = [s for s in series['looks_like'] if s in releases.SERIES]
    if len(mine) > 1:
        return '--release %s (the series it runs)' % ' or --release '.join(
            mine)
    return '--release %s' % (mine or [series['nearest']])[0]


def _names(series):
    return ' or '.join(series['looks_like'])
