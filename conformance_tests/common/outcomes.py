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

"""A call a rule governs: its answer reaches an assertion, whatever it is.

A verdict about the cloud, and a mutant's kill, come from a failed
assertion, never from an error. Tempest's clients raise on any status
they do not expect, so a refusal of a call the rule says must succeed
would escape the test as "error: Forbidden", a cause the report cannot
tie to the rule. Through these helpers a test states what the rule says
of a call:

    server = outcomes.must_succeed(self, RULE, client.create_server, ...)
    outcomes.must_be_refused(self, RULE, 403, client.create_server, ...)

An unexpected refusal, an unexpected status (413 where the rule says
403) or an unexpected acceptance is then a failed assertion that carries
the rule's words, the call and the cloud's answer (its status and the
first line of its body). Tempest has no such helper: its negative tests
use assertRaises, whose failure names neither the rule nor the answer.
"""

import json

from tempest.lib import exceptions as lib_exc

# How much of an answer's body a message carries.
BODY_CHARS = 200


def status_of(error):
    """The HTTP status of a Tempest client error, or None."""
    resp = getattr(error, 'resp', None)
    status = getattr(resp, 'status', None)
    if status is None and isinstance(resp, dict):
        status = resp.get('status')
    try:
        return int(status)
    except (TypeError, ValueError):
        return None


def answer(error):
    """'403: Quota exceeded for instances ...': the status and the first
    line of the body, short."""
    body = _message(getattr(error, 'resp_body', None))
    if isinstance(body, (dict, list)):
        body = json.dumps(body, sort_keys=True)
    text = str(body if body is not None else error).strip()
    first = text.splitlines()[0] if text else ''
    if len(first) > BODY_CHARS:
        first = first[:BODY_CHARS] + '...'
    status = status_of(error)
    return '%s: %s' % (status if status is not None else
                       type(error).__name__, first)


def _message(body):
    """The message of an OpenStack error body ({"forbidden": {"message":
    ...}} and the like), else the body."""
    if isinstance(body, dict):
        for value in ([body] + [v for v in body.values()
                                if isinstance(v, dict)]):
            for key in ('message', 'error_message', 'title'):
                if isinstance(value.get(key), str):
                    return value[key]
    return body


def describe(call, args, kwargs):
    """'servers_client.create_server(flavorRef=1, ...)' for messages."""
    owner = getattr(call, '__self__', None)
    name = getattr(call, '__name__', repr(call))
    if owner is not None:
        name = '%s.%s' % (type(owner).__name__, name)
    shown = [_shown(a) for a in args] + [
        '%s=%s' % (k, _shown(v)) for k, v in sorted(kwargs.items())]
    text = ', '.join(shown)
    if len(text) > 160:
        text = text[:160] + '...'
    return '%s(%s)' % (name, text)


def _shown(value):
    """Plain values as they are; a client or another object by its type
    (its repr is an address nobody can read)."""
    if isinstance(value, (str, int, float, bool, type(None), dict, list,
                          tuple)):
        return repr(value)
    return '<%s>' % type(value).__name__


# Not a refusal: the cloud accepted the call (2xx) and its body fails
# Tempest's schema. The caller judges it in its rule's words (seed 000's
# tests name the 2.64 shape; their expected-fail signatures match them),
# so it goes through unchanged, as it did before these helpers.
_NOT_A_REFUSAL = (lib_exc.InvalidHTTPResponseBody,)


def must_succeed(test, rule, call, *args, **kwargs):
    """Call; return its result. A refusal is ``test``'s failed assertion
    naming ``rule``, the call and the cloud's answer."""
    try:
        return call(*args, **kwargs)
    except _NOT_A_REFUSAL:
        raise
    except lib_exc.RestClientException as e:
        test.fail('%s: %s must succeed; the cloud refused it (%s)' % (
            rule, describe(call, args, kwargs), answer(e)))


def found_or_none(test, rule, call, *args, **kwargs):
    """Read what may be gone: None for a 404, else the result. Any other
    refusal (a 5xx, a 403) is ``test``'s failed assertion naming ``rule``,
    as must_succeed's: a read the rule depends on never escapes as an
    error."""
    try:
        return call(*args, **kwargs)
    except _NOT_A_REFUSAL:
        raise
    except lib_exc.NotFound:
        return None
    except lib_exc.RestClientException as e:
        test.fail('%s: %s must answer (the resource or 404); the cloud '
                  'refused it (%s)' % (rule, describe(call, args, kwargs),
                                       answer(e)))


def must_be_refused(test, rule, status, call, *args, **kwargs):
    """Call; it must be refused with ``status``. Returns the refusal (a
    Tempest client error). An acceptance, or another status, is
    ``test``'s failed assertion naming ``rule``, the call and the
    cloud's answer."""
    try:
        result = call(*args, **kwargs)
    except _NOT_A_REFUSAL:
        raise
    except lib_exc.RestClientException as e:
        if status_of(e) != status:
            test.fail('%s: %s must be refused with %d; the cloud answered '
                      '%s' % (rule, describe(call, args, kwargs), status,
                              answer(e)))
        return e
    test.fail('%s: %s must be refused with %d; the cloud accepted it (%s)'
              % (rule, describe(call, args, kwargs), status,
                 _short(result)))


def _short(result):
    text = repr(result)
    return text if len(text) <= BODY_CHARS else text[:BODY_CHARS] + '...'
