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

"""Test results from a subunit v2 stream, keyed by idempotent id.

subunit says only 'fail' for both a failed assertion and an error, so the
kind is read from the traceback: a test *fails an assertion* when its last
exception is an AssertionError (testtools' MismatchError is one); any
other exception (a timeout, a client error, a set-up failure) is an
*error*. Only assertion failures count as a verdict about the cloud: an
expected failure and a mutant kill need one.
"""

import re

import subunit
import testtools

_ATTRS = re.compile(r'\[([^\]]*)\]$')
STATUS = {'success': 'pass', 'fail': 'fail', 'skip': 'skip',
          'xfail': 'fail', 'uxsuccess': 'fail'}
ASSERTION = 'assertion'
ERROR = 'error'
# The suite's own AssertionError: common/cli.py's CommandFailed, a client
# command a rule runs exiting non-zero (a traceback names only the class).
_ASSERTION_TYPES = ('AssertionError', 'MismatchError', 'CommandFailed')


class NotSubunit(ValueError):
    """The stream holds no test result at all."""


def attributes(test_id):
    """What Tempest lists in brackets after a test's name: its
    idempotent id ('id-<uuid>') and its attributes ('slow', ...)."""
    match = _ATTRS.search(test_id)
    return match.group(1).split(',') if match else []


def idempotent_id(test_id):
    for attr in attributes(test_id):
        if attr.startswith('id-'):
            return attr[3:]
    return None


def _text(details, name):
    if name in details:
        return details[name].as_text()
    return None


def last_exception(traceback):
    """(exception type, message) of the last exception in a traceback.

    The exception line is the first unindented line after the last
    'Traceback (most recent call last):' header; the message runs to the
    end (assertion messages span lines).
    """
    lines = traceback.strip().splitlines()
    start = 0
    for k, line in enumerate(lines):
        if line.startswith('Traceback (most recent call last):'):
            start = k + 1
    for k in range(start, len(lines)):
        if lines[k] and not lines[k][0].isspace():
            head, _, rest = lines[k].partition(':')
            if re.match(r'^[A-Za-z_][\w.]*$', head):
                message = '\n'.join([rest.strip()] + lines[k + 1:])
                return head, message.strip()
            return None, '\n'.join(lines[k:])
    return None, traceback.strip()


def failure_kind(traceback):
    exc_type, _ = last_exception(traceback)
    if exc_type and exc_type.rsplit('.', 1)[-1] in _ASSERTION_TYPES:
        return ASSERTION
    return ERROR


def stream_tests(stream):
    """Every test event of a subunit v2 stream, as testtools' dicts
    (id, status, details, timestamps); non-subunit bytes are ignored."""
    found = []
    case = subunit.ByteStreamToStreamResult(stream, non_subunit_name='stdout')
    collector = testtools.StreamToDict(found.append)
    collector.startTestRun()
    case.run(collector)
    collector.stopTestRun()
    return found


def read(stream):
    """{idempotent id: {name, status, kind, message, requests, reason}}.

    `kind` is 'assertion' or 'error' for a failure, None otherwise;
    `message` is the assertion message (for signatures) or the skip
    reason. Tests without an idempotent id (e.g. a class's set-up) are
    reported under their full name.
    """
    results = {}
    for test in stream_tests(stream):
        if test['status'] not in STATUS:
            continue  # 'exists', 'inprogress': not a verdict
        status = STATUS[test['status']]
        requests = _text(test['details'], 'gabbi-requests')
        traceback = _text(test['details'], 'traceback') or ''
        reason = _text(test['details'], 'reason') or ''
        kind = message = None
        if status == 'fail':
            kind = failure_kind(traceback) if traceback else ERROR
            message = last_exception(traceback)[1] if traceback else (
                reason or 'failed without a traceback')
        elif status == 'skip':
            message = reason
        key = idempotent_id(test['id']) or test['id']
        results[key] = {
            'name': _ATTRS.sub('', test['id']),
            'status': status, 'kind': kind, 'message': message or '',
            'requests': int(requests) if requests else 0,
            'reason': _failure_summary(traceback or reason)
            if status in ('fail', 'skip') else '',
        }
    return results


# A class's or module's fixture, as testtools and Tempest name its result:
# "setUpClass (conformance_tests.api.x.SomeTest)".
FIXTURE = re.compile(r'^(?:setUpClass|setUpModule) \((?P<owner>[\w.]+)\)$')


def attribute_class_outcomes(results, test_names):
    """Give every selected test of a class whose set-up skipped or failed
    that class's outcome, as Tempest would have reported for each.

    ``test_names`` are the run's selected tests (Tempest's names, with
    their [id-...] attributes). A test with a result of its own keeps it.
    A fixture entry given to at least one test goes; one that reaches no
    selected test stays, so it is still reported (as a test no capability
    claims). Returns a new dict.
    """
    out = dict(results)
    for key, entry in results.items():
        match = FIXTURE.match(entry['name'] or '')
        if not match:
            continue
        prefix = match.group('owner') + '.'
        given = 0
        for name in test_names:
            plain = _ATTRS.sub('', name.strip())
            test_id = idempotent_id(name.strip()) or plain
            if plain.startswith(prefix) and test_id not in results:
                out[test_id] = dict(entry, name=plain)
                given += 1
        if given:
            del out[key]
    return out


def read_file(path):
    """read() of a file; NotSubunit names the file when it holds none."""
    with open(path, 'rb') as f:
        results = read(f)
    if not results:
        raise NotSubunit('%s holds no subunit v2 test result: pass the '
                         'file `tempest run --subunit` wrote' % path)
    return results


def _failure_summary(text):
    """The part of a traceback a reader needs: from 'spec rule' on."""
    text = text.strip()
    marker = text.find('spec rule broken:')
    if marker >= 0:
        return text[marker:][:3000]
    return '\n'.join(text.splitlines()[-6:])[:3000]
