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

"""common/gabbi_runner.py: generated tests, skips and failure text."""

import http.server
import json
import os
import threading
import time
import types
import urllib.parse

import fixtures
import testtools
import yaml

from conformance_tests.common import gabbi_files
from conformance_tests.common import gabbi_runner
from conformance_tests.selftests.common import test_gabbi_http
from conformance_tests.selftests.common import test_topology


class _DetailsResult(testtools.TestResult):
    """Keeps the details of the last passing test."""

    def addSuccess(self, test, details=None):
        super().addSuccess(test, details=details)
        self.details = details or {}


class GenerateTestsTest(testtools.TestCase):

    def make_class(self, **attrs):
        attrs.setdefault('gabbi_service', 'placement')
        return type('Generated', (object,), attrs)

    def test_one_method_per_file_with_rule_and_id(self):
        cls = gabbi_runner.generate_tests(self.make_class())
        paths = gabbi_files.test_files('placement')
        for path in paths:
            name = gabbi_files.test_name(path)
            method = getattr(cls, name)
            meta = gabbi_files.load(path)['meta']
            self.assertIn(meta['rule'], method.__doc__)
            self.assertEqual(name, method.__name__)
            self.assertIn('id-%s' % meta['id'],
                          getattr(method, '__testtools_attrs'))

    def test_a_smoke_file_is_tagged_as_tempest_tags_smoke(self):
        cls = gabbi_runner.generate_tests(self.make_class())
        tagged = {}
        for path in gabbi_files.test_files('placement'):
            attrs = getattr(getattr(cls, gabbi_files.test_name(path)),
                            '__testtools_attrs')
            tagged[path] = 'smoke' in attrs
            self.assertEqual(bool(gabbi_files.load(path)['meta'].get(
                'smoke')), tagged[path], path)
        # Both kinds are present: the check above can tell them apart.
        self.assertEqual({True, False}, set(tagged.values()))

    def test_name_clash_is_refused(self):
        path = gabbi_files.test_files('placement')[0]
        cls = self.make_class(**{gabbi_files.test_name(path): None})
        self.assertRaises(gabbi_files.GabbiFileError,
                          gabbi_runner.generate_tests, cls)


class FakeRunner(gabbi_runner.GabbiFileRunner):
    gabbi_service = 'placement'

    def __init__(self, conf_min, conf_max):
        self.conf = types.SimpleNamespace(placement=types.SimpleNamespace(
            min_microversion=conf_min, max_microversion=conf_max))
        self.skipped = None

    def conf_for_gabbi(self):
        return self.conf

    def skipTest(self, reason):
        self.skipped = reason


class SkipOutsideRangeTest(testtools.TestCase):

    def test_inside_range_runs(self):
        runner = FakeRunner('1.0', 'latest')
        runner._skip_outside_range({'min_microversion': '1.32'})
        self.assertIsNone(runner.skipped)

    def test_above_max_skips(self):
        runner = FakeRunner('1.0', '1.31')
        runner._skip_outside_range({'min_microversion': '1.32',
                                    'max_microversion': '1.33'})
        self.assertIn('max_microversion', runner.skipped)
        self.assertIn('1.33', runner.skipped)


class FailureMessageTest(testtools.TestCase):

    def test_message_starts_with_the_rule(self):
        case = types.SimpleNamespace(test_data={'name': 'req one'},
                                     id=lambda: 'x')
        trace = ('Traceback (most recent call last):\n'
                 '  File "a.py", line 1\n'
                 'AssertionError: expected 200, got 400\n')
        msg = gabbi_runner._failure_message(
            '/a/forbidden-x.yaml', {'rule': 'the rule'}, [(case, trace)],
            [], 3)
        lines = msg.splitlines()
        self.assertEqual('spec rule broken: the rule', lines[0])
        self.assertEqual('forbidden-x.yaml: 1 of 3 requests failed',
                         lines[1])
        self.assertIn('--- req one', lines)
        self.assertIn('AssertionError: expected 200, got 400', lines)
        self.assertNotIn('Traceback (most recent call last):', lines)

    def test_errors_alone_are_no_verdict(self):
        case = types.SimpleNamespace(test_data={'name': 'req two'},
                                     id=lambda: 'x')
        trace = 'ConnectionRefusedError: [Errno 111] refused\n'
        msg = gabbi_runner._failure_message(
            '/a/forbidden-x.yaml', {'rule': 'the rule'}, [],
            [(case, trace)], 3)
        lines = msg.splitlines()
        self.assertEqual('no verdict on the rule: the rule', lines[0])
        self.assertNotIn('spec rule broken', msg)
        self.assertIn('--- req two (error)', lines)

    def test_useful_part_falls_back_to_the_tail(self):
        trace = '\n'.join('line %d' % i for i in range(30))
        self.assertEqual('\n'.join('line %d' % i for i in range(15, 30)),
                         gabbi_runner._useful_part(trace))


class _EchoServer(object):
    """A loopback HTTP server: /ac?rp=U answers one allocation request
    from provider U and echoes the path; it records what it saw."""

    def __init__(self, delay=0):
        self.seen = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(url.query)
                owner.seen.append((self.path, dict(os.environ)))
                time.sleep(delay)  # a busy cloud
                body = json.dumps({
                    'path': url.path,
                    'allocation_requests': [
                        {'allocations': {rp: {}}}
                        for rp in query.get('rp', [])]}).encode()
                self.send_response(200)
                self.send_header('content-type', 'application/json')
                self.send_header('content-length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(
            ('127.0.0.1', 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       daemon=True)
        self.thread.start()
        self.url = 'http://127.0.0.1:%d' % self.httpd.server_address[1]

    def stop(self):
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.httpd.server_close()


TOPOLOGY = {'topo': {'resource_classes': ['CORE'],
                     'providers': {'cn1': {'inventory': {'CORE': 1}},
                                   'cn2': {'inventory': {'CORE': 1}}}}}


def _file(expected_providers):
    return {
        'meta': {'id': '2f6d8a1b-4c5e-4f7a-8b9c-3d0e1f2a6b66',
                 'rule': 'the rule of the file',
                 'min_microversion': '1.32', 'topology': 'topo'},
        'tests': [{
            'name': 'candidates from cn1',
            'GET': "/ac/$RUN['PREFIX']?rp=$RUN['CN1']",
            'response_candidate_providers': expected_providers,
            'response_json_paths': {
                '$.path': "/ac/$RUN['PREFIX']"},
        }]}


def _tls_file():
    """A file without topology whose one request the TLS server
    answers."""
    doc = _file(['cn1'])
    del doc['meta']['topology']
    doc['tests'] = [{'name': 'over tls', 'GET': '/tls',
                     'response_json_paths': {'$.path': '/tls'}}]
    return doc


class RunFileTest(testtools.TestCase):
    """run_gabbi_file against a loopback server, end to end."""

    def setUp(self):
        super().setUp()
        # gabbi's HTTP client logs every request (httpcore, at DEBUG where
        # an earlier test in the worker set that up): kept in the test's
        # details, not printed.
        self.useFixture(fixtures.FakeLogger())
        self.tmp = self.useFixture(fixtures.TempDir()).path
        os.mkdir(os.path.join(self.tmp, 'placement'))
        with open(os.path.join(self.tmp, 'placement', '_topologies.yaml'),
                  'w') as f:
            yaml.safe_dump(TOPOLOGY, f)
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.common.gabbi_files.gabbi_dir',
            lambda service: os.path.join(self.tmp, service)))
        self.server = _EchoServer()
        self.addCleanup(self.server.stop)

    def run_file(self, doc, endpoint=None, ca_file=None, verify=True,
                 http_timeout=60):
        path = os.path.join(self.tmp, 'placement', 'a-file.yaml')
        with open(path, 'w') as f:
            yaml.safe_dump(doc, f)
        server = self.server
        client = test_topology.FakeClient()

        class Local(gabbi_runner.GabbiFileRunner, testtools.TestCase):
            gabbi_service = 'placement'

            def conf_for_gabbi(self):
                return types.SimpleNamespace(
                    placement=types.SimpleNamespace(
                        min_microversion='1.0', max_microversion='latest'),
                    identity=types.SimpleNamespace(
                        ca_certificates_file=ca_file,
                        disable_ssl_certificate_validation=not verify),
                    service_clients=types.SimpleNamespace(
                        http_timeout=http_timeout))

            def gabbi_endpoint(self):
                return endpoint or server.url

            def gabbi_token(self):
                return 'not-a-secret'

            def gabbi_caller(self):
                return gabbi_runner.caller_of(types.SimpleNamespace(
                    auth_provider=types.SimpleNamespace(auth_data=(
                        'not-a-secret', {'project': {'id': 'proj-1'},
                                         'user': {'id': 'user-1'}}))))

            def resource_prefix(self):
                return 'conformance'

            def topology_client(self):
                return client

            def test_file(self):
                self.run_gabbi_file(path)

        result = _DetailsResult()
        Local('test_file').run(result)
        return result, client

    def test_values_and_names_reach_the_file_without_the_environment(self):
        before = dict(os.environ)
        result, client = self.run_file(_file(['cn1']))
        self.assertEqual([], result.errors + result.failures)
        self.assertEqual(1, result.testsRun)
        [(path, environ_seen)] = self.server.seen
        cn1 = [c[2] for c in client.named('create_provider')
               if c[1].endswith('-cn1')][0]
        self.assertRegex(path, r'^/ac/conformance-[0-9a-f]{8}\?rp=%s$'
                         % cn1)
        # Nothing of the run went through os.environ, during or after.
        self.assertEqual(before, environ_seen)
        self.assertEqual(before, dict(os.environ))

    def test_a_wrong_provider_set_fails_with_the_rule(self):
        result, _ = self.run_file(_file(['cn2']))
        self.assertEqual(1, len(result.failures), result.errors)
        msg = str(result.failures[0][1])
        self.assertIn('spec rule broken: the rule of the file', msg)
        self.assertIn("missing ['cn2']", msg)
        self.assertIn("unexpected ['cn1']", msg)

    def test_a_wrong_answer_is_an_assertion_failure(self):
        result, _ = self.run_file(_file(['cn2']))
        self.assertIn('AssertionError', str(result.failures[0][1]))

    def test_no_answer_is_an_error_not_an_assertion(self):
        # Nothing listens on the port the server had: connection refused.
        self.server.stop()
        result, _ = self.run_file(_file(['cn1']), endpoint=self.server.url)
        self.assertEqual(1, len(result.errors), result.failures)
        self.assertEqual([], result.failures)
        msg = str(result.errors[0][1])
        self.assertIn('GabbiRequestError', msg)
        self.assertIn('no verdict on the rule: the rule of the file', msg)
        self.assertNotIn('AssertionError', msg)

    def test_the_topology_requests_are_counted_removal_included(self):
        result, client = self.run_file(_file(['cn1']))
        self.assertEqual([], result.errors + result.failures)
        self.assertEqual(
            str(len(client.calls) + len(client.deleted)),
            result.details['topology-requests'].as_text())
        self.assertEqual('1', result.details['gabbi-requests'].as_text())

    def test_a_tls_cloud_is_reached_with_tempests_ca_file(self):
        server = self.useFixture(test_gabbi_http.TLSServer())
        result, _ = self.run_file(_tls_file(), endpoint=server.url,
                                  ca_file=server.files.ca)
        self.assertEqual([], result.errors + result.failures)
        self.assertEqual('1', result.details['gabbi-requests'].as_text())

    def test_a_tls_cloud_unchecked_with_validation_disabled(self):
        server = self.useFixture(test_gabbi_http.TLSServer())
        result, _ = self.run_file(_tls_file(), endpoint=server.url,
                                  verify=False)
        self.assertEqual([], result.errors + result.failures)

    def test_a_private_ca_not_configured_is_no_verdict(self):
        server = self.useFixture(test_gabbi_http.TLSServer())
        result, _ = self.run_file(_tls_file(), endpoint=server.url)
        self.assertEqual(1, len(result.errors), result.failures)
        msg = str(result.errors[0][1])
        self.assertIn('GabbiRequestError', msg)
        self.assertIn(test_gabbi_http.VERIFY_FAILED, msg)

    def test_a_slow_answer_within_http_timeout_is_judged(self):
        # gabbi's own deadline is 30 s (none in 2.x): Tempest's applies.
        slow = _EchoServer(delay=1.5)
        self.addCleanup(slow.stop)
        result, _ = self.run_file(_tls_file(), endpoint=slow.url,
                                  http_timeout=4)
        self.assertEqual([], result.errors + result.failures)
        self.assertEqual('1', result.details['gabbi-requests'].as_text())

    def test_no_answer_within_http_timeout_is_no_verdict(self):
        slow = _EchoServer(delay=1.5)
        self.addCleanup(slow.stop)
        result, _ = self.run_file(_tls_file(), endpoint=slow.url,
                                  http_timeout=1)
        self.assertEqual(1, len(result.errors), result.failures)
        msg = str(result.errors[0][1])
        self.assertIn('GabbiRequestError', msg)
        self.assertIn('timed out', msg)

    def test_the_callers_ids_reach_the_file(self):
        doc = _tls_file()
        doc['tests'][0]['GET'] = (
            "/tls?p=$RUN['CALLER_PROJECT_ID']&u=$RUN['CALLER_USER_ID']")
        doc['tests'][0]['response_json_paths'] = {'$.path': '/tls'}
        result, _ = self.run_file(doc)
        self.assertEqual([], result.errors + result.failures)
        self.assertEqual('/tls?p=proj-1&u=user-1', self.server.seen[-1][0])

    def test_the_topology_is_removed_after_the_run(self):
        _, client = self.run_file(_file(['cn1']))
        self.assertEqual(2, len([d for d in client.deleted
                                 if d[0] == 'provider']))
