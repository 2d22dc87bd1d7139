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

"""A tiny JSON-over-HTTP helper for the launcher and the stubs (stdlib only).

Errors carry method, URL and status, never request headers: tokens stay out
of every message. ``ca_file`` is the private CA of a TLS cloud
(cloud/tls.py): a URL of its front door is https.
"""

import json
import urllib.error
import urllib.request

from conformance_tests.common import tls


class HTTPError(Exception):
    def __init__(self, method, url, status, body):
        self.status = status
        super().__init__('%s %s -> %s %s' % (method, url, status, body[:300]))


def request(method, url, body=None, token=None, headers=None, timeout=10,
            ca_file=None):
    """Return (status, headers, decoded JSON or None)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header('Accept', 'application/json')
    if data is not None:
        req.add_header('Content-Type', 'application/json')
    if token:
        req.add_header('X-Auth-Token', token)
    for key, value in (headers or {}).items():
        req.add_header(key, value)
    try:
        context = tls.client_context(ca_file) if ca_file else None
        with urllib.request.urlopen(req, timeout=timeout,
                                    context=context) as resp:
            raw = resp.read()
            status, resp_headers = resp.status, resp.headers
    except urllib.error.HTTPError as e:
        raise HTTPError(method, url, e.code, e.read().decode(errors='replace'))
    return status, resp_headers, (json.loads(raw) if raw else None)


def json_response(start_response, status, body):
    """Answer a WSGI request with ``body`` as JSON (the stubs' and the
    fault endpoint's one response shape)."""
    data = json.dumps(body).encode()
    start_response(status, [('Content-Type', 'application/json'),
                            ('Content-Length', str(len(data)))])
    return [data]
