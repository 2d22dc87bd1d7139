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

"""report/signature.py and the bundle commands' --sign / --signed-by,
with the real ssh-keygen: a bundle signed by a key verifies with its
public half only, and not once a byte of it changed."""

import argparse
import os
import subprocess

import fixtures
import testtools

from conformance_tests.cmd import bundle as bundle_cmd
from conformance_tests.report import signature
from conformance_tests.selftests.report import test_bundle


def _key(directory, name):
    path = os.path.join(directory, name)
    subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C',
                    name, '-f', path], check=True)
    return path


class SignatureTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.key = _key(self.root, 'signer')
        self.other = _key(self.root, 'other')
        self.data = os.path.join(self.root, 'bundle.tar.gz')
        with open(self.data, 'wb') as f:
            f.write(b'a bundle')

    def test_signed_verifies_with_the_public_key(self):
        self.assertEqual(self.data + '.sig',
                         signature.sign(self.data, self.key))
        self.assertIsNone(signature.verify(self.data, self.key + '.pub'))

    def test_another_key_or_a_changed_byte_does_not_verify(self):
        signature.sign(self.data, self.key)
        self.assertIn('is not a signature of this bundle by',
                      signature.verify(self.data, self.other + '.pub'))
        with open(self.data, 'ab') as f:
            f.write(b'!')
        self.assertIn('is not a signature of this bundle by',
                      signature.verify(self.data, self.key + '.pub'))

    def test_a_signature_of_another_namespace_is_refused(self):
        subprocess.run(['ssh-keygen', '-q', '-Y', 'sign', '-f', self.key,
                        '-n', 'git', self.data], check=True)
        self.assertIn('is not a signature of this bundle by',
                      signature.verify(self.data, self.key + '.pub'))

    def test_the_receivers_openssh_only_check_of_the_docs(self):
        # doc/other-clouds.md: an allowed-signers line and ssh-keygen -Y
        # verify, without the suite.
        signature.sign(self.data, self.key)
        with open(self.key + '.pub') as f:
            public = f.read().split()
        signers = os.path.join(self.root, 'allowed_signers')
        with open(signers, 'w') as f:
            f.write('vendor namespaces="openstack-conformance-bundle" '
                    '%s %s\n' % (public[0], public[1]))
        with open(self.data, 'rb') as data:
            done = subprocess.run(
                ['ssh-keygen', '-Y', 'verify', '-f', signers, '-I',
                 'vendor', '-n', 'openstack-conformance-bundle', '-s',
                 self.data + '.sig'], stdin=data, capture_output=True)
        self.assertEqual(0, done.returncode, done.stderr)

    def test_no_signature_is_said(self):
        self.assertIn('the bundle was not signed',
                      signature.verify(self.data, self.key + '.pub'))

    def test_a_private_key_given_as_the_public_one_is_one_line(self):
        error = self.assertRaises(signature.SignatureError,
                                  signature.public_key_line, self.key)
        self.assertIn('not an OpenSSH public key', str(error))

    def test_a_missing_key_or_ssh_keygen_is_one_line(self):
        error = self.assertRaises(signature.SignatureError, signature.sign,
                                  self.data, self.key + '.nope')
        self.assertIn('no such key file', str(error))
        self.useFixture(fixtures.MonkeyPatch('shutil.which',
                                             lambda name: None))
        error = self.assertRaises(signature.SignatureError, signature.sign,
                                  self.data, self.key)
        self.assertIn('openssh-client', str(error))


class SignedBundleCommandTest(testtools.TestCase):
    """The commands on a real bundle (test_bundle's fake run)."""

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.workdir, self.files = test_bundle.fake_run(self.root)
        self.path = os.path.join(self.workdir, 'bundle.tar.gz')

    def run_cmd(self, func, args, **kwargs):
        out, err = [], []
        code = func(args, say=out.append, fail=err.append, **kwargs)
        return code, out, err

    def test_bundle_sign_then_verify_signed_by(self):
        key = _key(self.root, 'vendor')
        code, out, err = self.run_cmd(
            bundle_cmd.cmd_bundle, argparse.Namespace(
                workdir=self.workdir, output=None, sign=key),
            guideline_files=self.files)
        self.assertEqual((0, []), (code, err))
        self.assertIn('signed by %s in %s.sig' % (key, self.path), out[-1])
        code, out, err = self.run_cmd(
            bundle_cmd.cmd_verify_bundle, argparse.Namespace(
                file=self.path, signed_by=key + '.pub'))
        self.assertEqual((0, []), (code, err))
        self.assertIn('is signed by %s.pub' % key, out[-1])
        other = _key(self.root, 'someone')
        code, out, err = self.run_cmd(
            bundle_cmd.cmd_verify_bundle, argparse.Namespace(
                file=self.path, signed_by=other + '.pub'))
        self.assertEqual(1, code)
        self.assertEqual(['%s does not verify: not signed by %s.pub' % (
            self.path, other)], err)
        code, out, err = self.run_cmd(
            bundle_cmd.cmd_verify_bundle, argparse.Namespace(
                file=self.path, signed_by=None))
        self.assertEqual(0, code)
        self.assertIn('not checked: give the signer\'s public key',
                      out[-1])
