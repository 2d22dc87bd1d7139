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

"""A private CA per cloud, for the front door under the ``tls`` setting.

A vendor's cloud, and DevStack's Zuul jobs (``tls-proxy: true``), serve
their APIs over HTTPS with a certificate signed by a CA of their own,
which clients are told about (Tempest's ``[identity]
ca_certificates_file``, clouds.yaml's ``cacert``). The ``vendor-like-tls``
profile does the same at home: each start makes a new CA and a server
certificate for the cloud's host, under the cloud's service directory,
so no two clouds, and no two starts, trust each other's certificates.
The keys are 0600; the CA's key is thrown away once the server
certificate is signed (nothing else is ever signed with it).
"""

import datetime
import ipaddress
import os
import ssl

from conformance_tests.cloud import secrets

CA_FILE = 'ca-bundle.pem'
CERT_FILE = 'front-door.pem'
KEY_FILE = 'front-door.key'
# A cloud lives for a run or a working day; a week is more than enough
# and a short life keeps a copied certificate from being of use for long.
VALID_DAYS = 7


class Files(object):
    """Where one cloud's CA bundle, server certificate and key are."""

    def __init__(self, directory):
        self.ca = os.path.join(directory, CA_FILE)
        self.cert = os.path.join(directory, CERT_FILE)
        self.key = os.path.join(directory, KEY_FILE)


def make(directory, host):
    """A new CA and a certificate for ``host`` (an IP address or a DNS
    name) signed by it, written under ``directory``; return Files."""
    # Imported here: only a TLS cloud needs the cryptography package
    # (installed with the services' extra).
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives import serialization
    from cryptography import x509
    from cryptography.x509.oid import ExtendedKeyUsageOID
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    not_after = now + datetime.timedelta(days=VALID_DAYS)
    start = now - datetime.timedelta(minutes=5)  # clock skew of a peer

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(
        NameOID.COMMON_NAME, 'conformance embedded cloud CA %s' % os.urandom(
            4).hex())])
    ca = (x509.CertificateBuilder()
          .subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(start).not_valid_after(not_after)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0),
                         critical=True)
          .add_extension(x509.KeyUsage(
              digital_signature=False, content_commitment=False,
              key_encipherment=False, data_encipherment=False,
              key_agreement=False, key_cert_sign=True, crl_sign=True,
              encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(
              ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))

    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([
                x509.NameAttribute(NameOID.COMMON_NAME, host)]))
            .issuer_name(ca_name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(not_after)
            .add_extension(x509.SubjectAlternativeName(
                [_alt_name(x509, host)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None),
                           critical=True)
            .add_extension(x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))

    os.makedirs(directory, exist_ok=True)
    files = Files(directory)
    pem = serialization.Encoding.PEM
    with secrets.private_open(files.key) as f:
        f.write(key.private_bytes(
            pem, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()).decode())
    with open(files.cert, 'w') as f:
        f.write(cert.public_bytes(pem).decode())
    with open(files.ca, 'w') as f:
        f.write(ca.public_bytes(pem).decode())
    return files


def _alt_name(x509, host):
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def server_context(cert, key):
    """The front door's TLS context."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context
