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

"""The upstream versions of a series, for the words of a report.

A guideline's reason names the upstream release it was proven on
("blazar {blazar} deletes the host's servers ..."); the report names the
release of the series that judged the run: ``{blazar}`` becomes 15 under
``--release 2025.1``, 18 for today's series. The versions are the pins
the embedded cloud is built from: constraints/<series>.services.txt for
an older series, upper-constraints.txt for today's. Only the major
version is said: a vendor's cloud of that series may run another point
release (Debian 13's blazar is 15.0.0, the pin 15.1.0).
"""

import functools
import re

from conformance_tests.cloud import releases
from conformance_tests.common import paths

_PIN = re.compile(r'^([A-Za-z0-9_.-]+)\s*={2,3}\s*(\d+)\.')
_TOKEN = re.compile(r'\{([a-z0-9-]+)\}')


@functools.lru_cache(maxsize=None)
def majors(series):
    """{distribution name, lower case: major version} of ``series``."""
    if series == releases.CURRENT:
        path = paths.data_path('upper-constraints.txt')
    else:
        path = paths.data_path('constraints/%s.services.txt' % series)
    found = {}
    with open(path) as f:
        for line in f:
            match = _PIN.match(line.strip())
            if match:
                found[match.group(1).lower()] = match.group(2)
    return found


def fill(text, series):
    """``text`` with each {distribution} the series pins replaced by its
    major version; any other {word} is left as it is."""
    if not text or '{' not in text:
        return text
    known = majors(series or releases.CURRENT)
    return _TOKEN.sub(lambda m: known.get(m.group(1), m.group(0)), text)
