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

"""common/outcomes.py: whatever the cloud answers a call a rule governs,
the test fails by an assertion naming the rule, the call and the answer,
never by an escaping client error."""

from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import outcomes

RULE = 'a per-user limit binds that user only'


class Resp(dict):
    def __init__(self, status):
        super().__init__(status=str(status))
        self.status = status


def refuse(status, body):
    error = {403: lib_exc.Forbidden, 404: lib_exc.NotFound,
             413: lib_exc.OverLimit, 500: lib_exc.ServerFault}[status]
    return error(body, resp=Resp(status))


class Servers(object):
    def __init__(self, answer=None):
        self.answer = answer

    def create_server(self, **kwargs):
        if isinstance(self.answer, Exception):
            raise self.answer
        return {'server': {'id': 's1'}}


class OutcomesTest(testtools.TestCase):

    def test_success_returns_the_result(self):
        self.assertEqual({'server': {'id': 's1'}}, outcomes.must_succeed(
            self, RULE, Servers().create_server, name='b'))

    def test_an_unexpected_refusal_is_a_failed_assertion(self):
        servers = Servers(refuse(403, {'forbidden': {
            'message': 'Quota exceeded for instances: Requested 1, but '
                       'already used 2 of 2 instances\nsecond line'}}))
        e = self.assertRaises(
            self.failureException, outcomes.must_succeed, self, RULE,
            servers.create_server, name='b')
        text = str(e)
        self.assertIn(RULE + ': Servers.create_server(name=\'b\') must '
                      'succeed; the cloud refused it (403: ', text)
        self.assertIn('Quota exceeded for instances', text)
        self.assertNotIn('second line', text)

    def test_a_client_argument_is_shown_by_its_type(self):
        e = self.assertRaises(
            self.failureException, outcomes.must_succeed, self, RULE,
            Servers(refuse(403, 'no')).create_server, client=Servers())
        self.assertIn('Servers.create_server(client=<Servers>)', str(e))

    def test_a_server_error_is_a_failed_assertion_too(self):
        servers = Servers(refuse(500, 'boom'))
        e = self.assertRaises(self.failureException, outcomes.must_succeed,
                              self, RULE, servers.create_server)
        self.assertIn('(500: boom)', str(e))

    def test_a_body_failing_the_schema_is_the_callers_to_judge(self):
        # Seed 000's tests judge a 2.64 group of another shape in their
        # own words (the spec reference's expected signature).
        servers = Servers(lib_exc.InvalidHTTPResponseBody('rules missing'))
        self.assertRaises(lib_exc.InvalidHTTPResponseBody,
                          outcomes.must_succeed, self, RULE,
                          servers.create_server)
        self.assertRaises(lib_exc.InvalidHTTPResponseBody,
                          outcomes.must_be_refused, self, RULE, 400,
                          servers.create_server)

    def test_a_read_of_what_is_gone_is_none(self):
        self.assertIsNone(outcomes.found_or_none(
            self, RULE, Servers(refuse(404, 'gone')).create_server))
        self.assertEqual({'server': {'id': 's1'}}, outcomes.found_or_none(
            self, RULE, Servers().create_server))

    def test_a_read_refused_otherwise_is_a_failed_assertion(self):
        # The control above answers 404; a 5xx of the same read is the
        # rule's, not an error and not "gone".
        e = self.assertRaises(
            self.failureException, outcomes.found_or_none, self, RULE,
            Servers(refuse(500, 'boom')).create_server)
        self.assertIn(RULE + ': Servers.create_server() must answer (the '
                      'resource or 404); the cloud refused it (500: boom)',
                      str(e))

    def test_no_answer_is_not_a_verdict(self):
        # A dropped connection is the run's error, never the rule's.
        servers = Servers(ConnectionError('reset'))
        self.assertRaises(ConnectionError, outcomes.must_succeed, self,
                          RULE, servers.create_server)

    def test_the_refusal_the_rule_names_is_returned(self):
        refusal = refuse(403, 'Quota exceeded for instances')
        got = outcomes.must_be_refused(self, RULE, 403, Servers(
            refusal).create_server)
        self.assertIs(refusal, got)

    def test_another_status_is_a_failed_assertion(self):
        e = self.assertRaises(
            self.failureException, outcomes.must_be_refused, self, RULE, 403,
            Servers(refuse(413, 'over limit')).create_server)
        self.assertIn('must be refused with 403; the cloud answered 413: '
                      'over limit', str(e))

    def test_an_acceptance_is_a_failed_assertion(self):
        e = self.assertRaises(
            self.failureException, outcomes.must_be_refused, self, RULE, 403,
            Servers().create_server, name='a4')
        self.assertIn("must be refused with 403; the cloud accepted it "
                      "({'server': {'id': 's1'}})", str(e))
