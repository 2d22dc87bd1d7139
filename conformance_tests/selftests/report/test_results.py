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

"""report/results.py: verdicts from a subunit v2 stream."""

import io

import subunit
import testtools

from conformance_tests.common import cli
from conformance_tests.report import results

ID_A = '11111111-1111-4111-8111-111111111111'
ID_B = '22222222-2222-4222-8222-222222222222'
ID_C = '33333333-3333-4333-8333-333333333333'
ID_LISTED = '44444444-4444-4444-8444-444444444444'
PREFIX = 'conformance_tests.api.x.T.'


def _tid(name, test_id):
    return '%s%s[id-%s,smoke]' % (PREFIX, name, test_id)


def _stream(events):
    """A subunit v2 byte stream of ``events`` (status() keyword dicts)."""
    buf = io.BytesIO()
    out = subunit.StreamResultToBytes(buf)
    for event in events:
        out.status(**event)
    buf.seek(0)
    return buf


def _attach(test_id, name, data):
    return {'test_id': test_id, 'file_name': name, 'file_bytes': data,
            'mime_type': 'text/plain;charset=utf8', 'eof': True}


TRACEBACK = (b'Traceback (most recent call last):\n'
             b'  File "x.py", line 1, in test_b\n'
             b'AssertionError: spec rule broken: X\n'
             b'forbidden-x.yaml: 1 of 3 requests failed\n')


def _sample_events():
    a, b, c = (_tid('test_a', ID_A), _tid('test_b', ID_B),
               _tid('test_c', ID_C))
    listed_only = _tid('test_listed_only', ID_LISTED)
    return [
        # --list style events: not verdicts.
        {'test_id': a, 'test_status': 'exists'},
        {'test_id': listed_only, 'test_status': 'exists'},
        {'test_id': a, 'test_status': 'inprogress'},
        _attach(a, 'gabbi-requests', b'7'),
        {'test_id': a, 'test_status': 'success'},
        {'test_id': b, 'test_status': 'inprogress'},
        _attach(b, 'traceback', TRACEBACK),
        {'test_id': b, 'test_status': 'fail'},
        {'test_id': c, 'test_status': 'inprogress'},
        _attach(c, 'reason', b'needs placement microversion 1.32'),
        {'test_id': c, 'test_status': 'skip'},
    ]


class ReadTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.results = results.read(_stream(_sample_events()))

    def test_keyed_by_idempotent_id(self):
        self.assertEqual({ID_A, ID_B, ID_C}, set(self.results))

    def test_exists_events_are_ignored(self):
        self.assertNotIn(ID_LISTED, self.results)

    def test_statuses_are_mapped(self):
        self.assertEqual('pass', self.results[ID_A]['status'])
        self.assertEqual('fail', self.results[ID_B]['status'])
        self.assertEqual('skip', self.results[ID_C]['status'])

    def test_name_has_no_attributes(self):
        self.assertEqual(PREFIX + 'test_a', self.results[ID_A]['name'])

    def test_requests_from_attachment(self):
        self.assertEqual(7, self.results[ID_A]['requests'])

    def test_requests_default_to_zero(self):
        self.assertEqual(0, self.results[ID_B]['requests'])

    def test_failure_reason_starts_at_spec_rule(self):
        reason = self.results[ID_B]['reason']
        self.assertTrue(reason.startswith('spec rule broken: X'), reason)
        self.assertIn('1 of 3 requests failed', reason)
        self.assertNotIn('Traceback', reason)

    def test_skip_reason_is_kept(self):
        self.assertEqual('needs placement microversion 1.32',
                         self.results[ID_C]['reason'])

    def test_pass_has_no_reason(self):
        self.assertEqual('', self.results[ID_A]['reason'])

    def test_empty_stream_is_empty(self):
        self.assertEqual({}, results.read(io.BytesIO(b'')))


class ReadEdgeCasesTest(testtools.TestCase):

    def test_test_without_id_is_keyed_by_full_name(self):
        name = 'conformance_tests.selftests.T.test_plain'
        found = results.read(_stream([
            {'test_id': name, 'test_status': 'success'}]))
        self.assertEqual({name}, set(found))
        self.assertEqual('pass', found[name]['status'])

    def test_unexpected_success_counts_as_fail(self):
        found = results.read(_stream([
            {'test_id': _tid('t', ID_A), 'test_status': 'uxsuccess'}]))
        self.assertEqual('fail', found[ID_A]['status'])

    def test_expected_failure_counts_as_fail(self):
        found = results.read(_stream([
            {'test_id': _tid('t', ID_A), 'test_status': 'xfail'}]))
        self.assertEqual('fail', found[ID_A]['status'])

    def test_reason_without_marker_is_the_tail(self):
        lines = b''.join(b'line %d\n' % i for i in range(20))
        found = results.read(_stream([
            _attach(_tid('t', ID_A), 'traceback', lines),
            {'test_id': _tid('t', ID_A), 'test_status': 'fail'}]))
        self.assertEqual('\n'.join('line %d' % i for i in range(14, 20)),
                         found[ID_A]['reason'])

    def test_non_subunit_bytes_are_tolerated(self):
        stream = io.BytesIO(b'some stray output\n' + _stream([
            {'test_id': _tid('t', ID_A),
             'test_status': 'success'}]).read())
        self.assertEqual({ID_A}, set(results.read(stream)))


class IdempotentIdTest(testtools.TestCase):

    def test_id_among_attrs(self):
        self.assertEqual(ID_A, results.idempotent_id(
            'a.b.C.test_x[id-%s,smoke]' % ID_A))

    def test_id_not_first(self):
        self.assertEqual(ID_A, results.idempotent_id(
            'a.b.C.test_x[smoke,id-%s]' % ID_A))

    def test_only_id(self):
        self.assertEqual(ID_A, results.idempotent_id(
            'a.b.C.test_x[id-%s]' % ID_A))

    def test_attrs_without_id(self):
        self.assertIsNone(results.idempotent_id('a.b.C.test_x[smoke]'))

    def test_no_attrs(self):
        self.assertIsNone(results.idempotent_id('a.b.C.test_x'))


class FailureKindTest(testtools.TestCase):
    """Only a failed assertion is a verdict; anything else is an error."""

    def test_assertion_error_is_an_assertion(self):
        self.assertEqual('assertion', results.failure_kind(
            TRACEBACK.decode()))

    def test_testtools_mismatch_is_an_assertion(self):
        self.assertEqual('assertion', results.failure_kind(
            'Traceback (most recent call last):\n  File "x", line 1\n'
            'testtools.matchers._impl.MismatchError: 3 != 0: rule'))

    def test_a_failed_client_command_is_an_assertion(self):
        # cli.CommandFailed subclasses AssertionError: a rule's client
        # command exiting non-zero is its failed assertion, a kill.
        self.assertTrue(issubclass(cli.CommandFailed, AssertionError))
        self.assertEqual('assertion', results.failure_kind(
            'Traceback (most recent call last):\n  File "x", line 1\n'
            'conformance_tests.common.cli.CommandFailed: rule: `openstack '
            'reservation lease delete x` exited 1: ERROR: boom'))

    def test_timeout_is_an_error(self):
        self.assertEqual('error', results.failure_kind(
            'Traceback (most recent call last):\n  File "x", line 1\n'
            'tempest.lib.exceptions.TimeoutException: Request timed out'))

    def test_chained_exception_is_judged_by_the_last(self):
        text = ('Traceback (most recent call last):\n  File "a"\n'
                'AssertionError: first\n\nDuring handling of the above '
                'exception, another exception occurred:\n\n'
                'Traceback (most recent call last):\n  File "b"\n'
                'urllib.error.URLError: <urlopen error refused>')
        self.assertEqual('error', results.failure_kind(text))
        self.assertEqual(('urllib.error.URLError', '<urlopen error refused>'),
                         results.last_exception(text))

    def test_multiline_assertion_message_is_kept(self):
        _, message = results.last_exception(TRACEBACK.decode())
        self.assertIn('spec rule broken: X', message)
        self.assertIn('1 of 3 requests failed', message)

    def test_read_gives_kind_and_message(self):
        tid = _tid('test_b', ID_B)
        found = results.read(_stream([
            {'test_id': tid, 'test_status': 'inprogress'},
            _attach(tid, 'traceback', TRACEBACK),
            {'test_id': tid, 'test_status': 'fail'}]))
        self.assertEqual('assertion', found[ID_B]['kind'])
        self.assertIn('spec rule broken: X', found[ID_B]['message'])


class ReadFileTest(testtools.TestCase):

    def test_a_file_that_is_not_subunit_is_refused(self):
        import fixtures
        path = self.useFixture(fixtures.TempDir()).join('x.subunit')
        with open(path, 'w') as f:
            f.write('this is not a subunit stream\n' * 10)
        e = self.assertRaises(results.NotSubunit, results.read_file, path)
        self.assertIn('holds no subunit v2 test result', str(e))
