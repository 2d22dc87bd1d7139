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

"""Version documents: where to find one for an endpoint, which of its
versions the endpoint is, and the microversion range that version offers.

A catalog URL may be versioned (compute's .../v2.1, blazar's .../v1,
perhaps with a project id after it) or a service root (placement's).
Discovery tries the URL itself, then the URL up to its version segment,
then the root before it, as keystoneauth does: a versioned URL may need
a token (blazar answers 401 without one and 404 with one at /v1, its
version document is at /).
"""

import collections
import re
from urllib import parse

_VERSION_SEGMENT = re.compile(r'/v(\d+(?:\.\d+)*)(?=/|$)')
_NUMBERS = re.compile(r'^v?(\d+(?:\.\d+)*)$')

# The version document found for an endpoint: the URL that gave it, its
# HTTP status, the entry for the endpoint's version.
Document = collections.namedtuple('Document', 'url status entry')


class NoDocument(Exception):
    """The endpoint gave no version document: ``url`` and ``why``."""

    def __init__(self, url, why, tried=()):
        super().__init__(why)
        self.url = url
        self.why = why
        self.tried = tuple(tried)


def json_of(response):
    try:
        return response.json()
    except ValueError:
        return None


def entries(doc):
    """The version entries of a version document (one version, or a
    list as services answer at their root; keystone nests the list in
    'values')."""
    if not isinstance(doc, dict):
        return []
    if isinstance(doc.get('version'), dict):
        return [doc['version']]
    found = doc.get('versions')
    if isinstance(found, dict):
        found = found.get('values')
    if isinstance(found, list):
        return [e for e in found if isinstance(e, dict) and 'id' in e]
    return []


def numbers(text):
    """'v2.1' -> (2, 1); '1.0' -> (1, 0); anything else -> None."""
    match = _NUMBERS.match(str(text or '').strip())
    if not match:
        return None
    return tuple(int(n) for n in match.group(1).split('.'))


def url_version(url):
    """The version a URL's path names (its last /vN[.M] segment)."""
    found = list(_VERSION_SEGMENT.finditer(parse.urlsplit(url).path))
    return numbers(found[-1].group(1)) if found else None


def pick(found, url):
    """The entry for the version ``url`` names, else the current one."""
    wanted = url_version(url)
    if wanted:
        for match in (lambda n: n == wanted,
                      lambda n: n[:len(wanted)] == wanted):
            hits = [e for e in found
                    if numbers(e.get('id')) and match(numbers(e.get('id')))]
            if hits:
                return hits[0]
    current = [e for e in found if str(e.get('status', '')).upper() in
               ('CURRENT', 'STABLE')]
    return (current or found)[0]


def candidates(url):
    """The URL, the URL up to its version segment, the root before it."""
    parts = parse.urlsplit(url)
    path = parts.path
    found = list(_VERSION_SEGMENT.finditer(path))
    paths = [path]
    if found:
        last = found[-1]
        paths += [path[:last.end()] + '/', path[:last.start()] + '/']
    urls = []
    for p in paths:
        candidate = parse.urlunsplit((parts.scheme, parts.netloc, p,
                                      parts.query if p == path else '', ''))
        if candidate.rstrip('/') not in [u.rstrip('/') for u in urls]:
            urls.append(candidate)
    return urls


def answer(response):
    """How an answer that is no version document is described."""
    if response.status_code in (200, 300):
        return '%d with no version document' % response.status_code
    return str(response.status_code)


def discover(http, url, token=None):
    """The Document for ``url``; NoDocument, or http.Unreachable when
    nothing answers."""
    first = None
    tried = []
    for candidate in candidates(url):
        response = http.request('GET', candidate, token=token)
        found = entries(json_of(response))
        if response.status_code in (200, 300) and found:
            return Document(candidate, response.status_code,
                            pick(found, url))
        first = first or answer(response)
        tried.append(candidate)
    raise NoDocument(url, first, tried)


# -- microversions ---------------------------------------------------------

def offered(entry):
    """(min, max) microversions a version entry offers, as text, or None
    when it names none (compute's 'version', the others' 'max_version')."""
    high = entry.get('max_version') or entry.get('version')
    low = entry.get('min_version')
    if not numbers(high):
        return None
    return (low if numbers(low) else high, high)


class MicroversionError(Exception):
    pass


def check_claims(group, claimed_min, claimed_max, offer):
    """Refuse a [group] min/max_microversion the cloud does not offer.

    ``offer`` is offered()'s (min, max) or None. 'latest' is whatever the
    cloud offers. Unset claims are not checked (Tempest then skips what
    needs a microversion).
    """
    parsed = {}
    for option, text in (('min_microversion', claimed_min),
                         ('max_microversion', claimed_max)):
        if text is None or text == '' or text.lower() == 'latest':
            continue
        value = numbers(text)
        if value is None or len(value) != 2 or text.startswith('v'):
            raise MicroversionError('[%s] %s %s: not X.Y or latest' % (
                group, option, text))
        parsed[option] = value
    low, high = (parsed.get('min_microversion'),
                 parsed.get('max_microversion'))
    if low and high and low > high:
        raise MicroversionError('[%s] min_microversion %s is above '
                                'max_microversion %s' % (
                                    group, claimed_min, claimed_max))
    if not parsed:
        return
    if offer is None:
        option = 'max_microversion' if high else 'min_microversion'
        raise MicroversionError('[%s] %s %s: the cloud offers no '
                                'microversions' % (
                                    group, option,
                                    claimed_max if high else claimed_min))
    offer_low, offer_high = numbers(offer[0]), numbers(offer[1])
    span = '%s-%s' % offer
    for option, value, text in (('max_microversion', high, claimed_max),
                                ('min_microversion', low, claimed_min)):
        if value and not offer_low <= value <= offer_high:
            raise MicroversionError('[%s] %s %s: the cloud offers %s' % (
                group, option, text, span))
