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

"""A bundle's detached signature, made and checked with OpenSSH's
``ssh-keygen -Y`` (OpenSSH 8.1 and later, on every gate node and laptop).

The bundle's sha256 proves it was not changed; the signature proves who
made it: the holder of the private key whose public half the receiver
was given apart from the bundle. ssh-keygen is used rather than our own
crypto: it is what a receiver already trusts and can run by hand, with
the commands doc/other-clouds.md shows. Signatures are made in the
namespace NAMESPACE, so a signature made for another purpose with the
same key (a git commit, a file of another tool) is not accepted here.
"""

import os
import shutil
import subprocess
import tempfile

NAMESPACE = 'openstack-conformance-bundle'
SUFFIX = '.sig'
# The identity the receiver's one-line allowed-signers file names.
SIGNER = 'bundle-signer'


class SignatureError(Exception):
    """One line: what to fix."""


def _ssh_keygen():
    found = shutil.which('ssh-keygen')
    if not found:
        raise SignatureError('ssh-keygen not found: install OpenSSH\'s '
                             'client (Debian and Ubuntu: openssh-client)')
    return found


def _last_line(text):
    lines = [line.strip() for line in (text or '').splitlines()
             if line.strip()]
    return lines[-1] if lines else 'no output'


def sign(path, key):
    """Write ``path``.sig, signed with the private key file ``key`` (or
    a public key whose private half ssh-agent holds); return its path."""
    if not os.path.isfile(key):
        raise SignatureError('--sign %s: no such key file (an OpenSSH '
                             'private key, e.g. ~/.ssh/id_ed25519)' % key)
    out = path + SUFFIX
    if os.path.exists(out):
        os.remove(out)  # ssh-keygen asks before it overwrites
    done = subprocess.run(
        [_ssh_keygen(), '-q', '-Y', 'sign', '-f', key, '-n', NAMESPACE,
         path], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode or not os.path.exists(out):
        raise SignatureError('ssh-keygen could not sign %s with %s: %s' % (
            path, key, _last_line(done.stderr)))
    return out


def public_key_line(public_key):
    """The first key line of an OpenSSH public key file."""
    try:
        with open(public_key) as f:
            lines = [line.strip() for line in f if line.strip()
                     and not line.startswith('#')]
    except OSError as e:
        raise SignatureError('--signed-by %s: %s' % (
            public_key, e.strerror or e))
    if not lines or not lines[0].startswith(('ssh-', 'ecdsa-', 'sk-')):
        raise SignatureError('--signed-by %s: not an OpenSSH public key '
                             '(a .pub file, "ssh-ed25519 AAAA...")'
                             % public_key)
    return lines[0]


def verify(path, public_key):
    """None when ``path``.sig is a signature of ``path`` by the key in
    ``public_key`` (a .pub file) in our namespace; else why not, one
    line."""
    signature = path + SUFFIX
    if not os.path.exists(signature):
        return 'no signature beside it (%s): the bundle was not signed' % (
            signature)
    line = public_key_line(public_key)
    with tempfile.TemporaryDirectory(prefix='conformance-signers-') as tmp:
        signers = os.path.join(tmp, 'allowed_signers')
        with open(signers, 'w') as f:
            f.write('%s namespaces="%s" %s\n' % (SIGNER, NAMESPACE, line))
        with open(path, 'rb') as data:
            done = subprocess.run(
                [_ssh_keygen(), '-Y', 'verify', '-f', signers, '-I', SIGNER,
                 '-n', NAMESPACE, '-s', signature], stdin=data,
                capture_output=True, text=True)
    if done.returncode:
        return 'its signature %s is not a signature of this bundle by %s: ' \
               '%s' % (signature, public_key, _last_line(
                   done.stderr or done.stdout))
    return None
