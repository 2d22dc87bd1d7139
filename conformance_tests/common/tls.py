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

"""The one trust every client of the suite uses: Tempest's own options.

Tempest's registered clients check a cloud's certificate against
``[identity] ca_certificates_file`` (the system's store when unset) and
check nothing with ``[identity] disable_ssl_certificate_validation``.
The suite's other clients (gabbi, the topology and cleanup clients,
novaclient, the CLIs, the launcher's own requests to a TLS cloud) take
the same two values from here, so a cloud with a private CA is reached
by all of them or by none.
"""

import ssl


def options(conf):
    """(ca_file or None, verify) from a Tempest CONF."""
    identity = conf.identity
    return (identity.ca_certificates_file or None,
            not identity.disable_ssl_certificate_validation)


def requests_verify(ca_file, verify):
    """The ``verify`` argument of requests and keystoneauth sessions."""
    if not verify:
        return False
    return ca_file or True


def client_context(ca_file=None, verify=True):
    """A TLS client context that trusts ``ca_file`` only (the system's
    default store when None), or checks nothing when not ``verify``."""
    if not verify:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return ssl.create_default_context(cafile=ca_file)
