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

"""Identity v3: is it there, and does it take each configured account."""

import collections

from conformance_tests.preflight import http as http_mod
from conformance_tests.preflight import versions

# What a password authentication gave: the token (kept to read version
# documents, never written), its role names and its catalog.
Token = collections.namedtuple('Token', 'id roles catalog')


class IdentityError(Exception):
    """One line: the option to fix and why."""


def reach(http, uri_v3):
    """The identity version document's version id (e.g. 'v3.14')."""
    where = '[identity] uri_v3 %s' % uri_v3
    try:
        response = http.request('GET', uri_v3)
    except http_mod.Unreachable as e:
        raise IdentityError('%s: %s' % (where, e))
    entries = versions.entries(versions.json_of(response))
    if response.status_code not in (200, 300) or not entries:
        raise IdentityError('%s: answers %s, not identity\'s version '
                            'document' % (where, versions.answer(response)))
    entry = versions.pick(entries, uri_v3)
    if not str(entry.get('id', '')).startswith('v3'):
        raise IdentityError('%s: is identity %s, not v3' % (
            where, entry.get('id')))
    return entry.get('id')


def authenticate(http, uri_v3, credential):
    """A Token for ``credential``, or IdentityError naming the option."""
    url = uri_v3.rstrip('/') + '/auth/tokens'
    try:
        response = http.request('POST', url, body=credential.auth_body())
    except http_mod.Unreachable as e:
        raise IdentityError('[identity] uri_v3 %s: %s' % (uri_v3, e))
    status = response.status_code
    if status in (401, 403):
        raise IdentityError('%s: identity refused the credentials of %s '
                            '(%d)' % (credential.option, credential.label,
                                      status))
    if status == 404:
        raise IdentityError('[identity] uri_v3 %s: POST %s answers 404 (not '
                            'an identity v3 API)' % (uri_v3, url))
    if status == 400:
        raise IdentityError('%s: identity answered 400 to the credentials '
                            'of %s: %s' % (credential.option,
                                           credential.label,
                                           _message(response)))
    if status not in (200, 201):
        raise IdentityError('[identity] uri_v3 %s: POST %s answers %d' % (
            uri_v3, url, status))
    body = versions.json_of(response)
    token = body.get('token') if isinstance(body, dict) else None
    token_id = response.headers.get('X-Subject-Token')
    if not isinstance(token, dict) or not token_id:
        raise IdentityError('[identity] uri_v3 %s: POST %s answers %d '
                            'without a token' % (uri_v3, url, status))
    roles = [r.get('name') for r in token.get('roles') or ()
             if isinstance(r, dict)]
    catalog = [s for s in token.get('catalog') or ()
               if isinstance(s, dict)]
    if not catalog:
        scope_option = ('[auth] admin_project_name'
                        if credential.option.startswith('[auth] admin')
                        else credential.option)
        raise IdentityError('%s: the token of %s (%s) has no service '
                            'catalog' % (scope_option, credential.label,
                                         credential.scope()))
    return Token(token_id, roles, catalog)


def _message(response):
    body = versions.json_of(response)
    error = body.get('error') if isinstance(body, dict) else None
    text = error.get('message') if isinstance(error, dict) else None
    text = ' '.join(str(text or response.reason or '').split())
    return text[:200] or 'no reason given'
