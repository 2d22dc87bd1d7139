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

"""cloud/peer.py and peer_tests.txt: the upstream Tempest peer check."""

import testtools

from conformance_tests.cloud import peer

REQUIRED = (
    'tempest.api.compute.servers.test_server_group',
    'tempest.api.compute.admin.test_quotas',
    'tempest.api.compute.admin.test_quotas_negative',
    'tempest.api.compute.limits',
    'tempest.api.compute.admin.test_servers_on_multinodes',
    'tempest.api.image.v2.test_images',
)


def _result(name, status, reason=''):
    return {'name': name, 'status': status, 'reason': reason,
            'requests': 0}


class PeerListTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.entries = peer.load()

    def test_required_modules_run(self):
        runs = [e.prefix for e in self.entries if e.kind == 'run']
        for module in REQUIRED:
            self.assertIn(module + '.', runs)

    def test_every_excuse_has_a_reason_and_is_under_a_run(self):
        runs = [e.prefix for e in self.entries if e.kind == 'run']
        for e in self.entries:
            if e.kind != 'run':
                self.assertTrue(e.reason, e)
                self.assertTrue(any(e.prefix.startswith(r) for r in runs),
                                e.prefix)

    def test_nothing_is_excused_for_want_of_an_image_service(self):
        for e in self.entries:
            self.assertNotIn('glance = false', e.reason)
            self.assertNotIn('image_client', e.reason)
            self.assertFalse(e.prefix.startswith(
                'tempest.api.image.v2.test_images.BasicOperationsImagesTest'))


class ParseTest(testtools.TestCase):

    def test_kinds_and_comments(self):
        entries = peer.parse(['# comment', '', 'run a.b.', 'skip a.b.C why',
                              'fail a.b.D /bo+m/ because x  # note'])
        self.assertEqual([('run', 'a.b.', ''), ('skip', 'a.b.C', 'why'),
                          ('fail', 'a.b.D', 'because x')],
                         [tuple(e)[:3] for e in entries])
        self.assertEqual('bo+m', entries[2].signature.pattern)

    def test_fail_entry_without_the_failure_it_excuses(self):
        e = self.assertRaises(peer.PeerListError, peer.parse,
                              ['fail a.b.D it fails'])
        self.assertIn('/<regex>/', str(e))

    def test_unknown_kind(self):
        e = self.assertRaises(peer.PeerListError, peer.parse, ['walk a.b'])
        self.assertIn('line 1', str(e))

    def test_excuse_without_reason(self):
        self.assertRaises(peer.PeerListError, peer.parse, ['skip a.b'])

    def test_include_regexes_are_anchored_prefixes(self):
        regexes = peer.include_regexes(peer.parse(['run a.b.', 'skip a.c x']))
        self.assertEqual([r'^a\.b\.'], regexes)


class JudgeTest(testtools.TestCase):

    entries = peer.parse(['run m.', 'skip m.A needs x',
                          'fail m.B.t /host \\w+ not found/ bug'])

    def judge(self, *results):
        return peer.judge({str(i): r for i, r in enumerate(results)},
                          self.entries)

    def test_pass(self):
        verdict = self.judge(_result('m.C.test', 'pass'))
        self.assertEqual([('m.C.test', '')], verdict['passed'])
        self.assertEqual([], verdict['unexpected'])

    def test_listed_skip_including_class_level(self):
        verdict = self.judge(_result('m.A.t', 'skip'),
                             _result('setUpClass (m.A)', 'skip'))
        self.assertEqual(2, len(verdict['expected']))
        self.assertEqual([], verdict['unexpected'])

    def test_unlisted_skip_and_failure_are_unexpected(self):
        verdict = self.judge(_result('m.C.t', 'skip', 'no image service'),
                             _result('m.A.t', 'fail', 'boom'))
        self.assertEqual(['m.A.t', 'm.C.t'],
                         sorted(n for n, _ in verdict['unexpected']))

    def test_listed_failure(self):
        verdict = self.judge(_result('m.B.t', 'fail', 'x: host h1 not found'))
        self.assertEqual([('m.B.t', 'bug')], verdict['expected'])

    def test_listed_test_failing_another_way_is_unexpected(self):
        verdict = self.judge(_result('m.B.t', 'fail', 'timed out'))
        self.assertEqual(['m.B.t'], [n for n, _ in verdict['unexpected']])

    def test_summary_counts(self):
        text = peer.summary(self.judge(_result('m.C.t', 'pass'),
                                       _result('m.D.t', 'fail', 'x\ny')))
        self.assertIn('1 passed, 0 not passing as listed, 1 unexpected',
                      text)
        self.assertIn('UNEXPECTED m.D.t: fail: x y', text)
