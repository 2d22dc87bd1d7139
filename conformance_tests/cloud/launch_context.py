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

"""The launcher's view of a starting cloud, handed to every descriptor.

Descriptors read ports, secrets and settings from it, reach keystone with
its admin token, and leave what they learn for their tempest.conf
fragment in ``outputs[<their name>]``: no descriptor keeps state of its
own between calls.

A catalog URL (``catalog_url``, ``identity_uri``) is what keystone's
catalog, the services' configs and the client files hold: the service's
own port, or, when the front door runs (it has a port in ``ports``), the
front door's under the listener's prefix. ``url`` is always the
service's own port (readiness, the launcher's direct looks).

With the ``tls`` setting the front door speaks HTTPS with the cloud's
private CA (cloud/tls.py): its URLs are https, ``ca_file`` names the CA
bundle every client and every service's own client is told to trust, and
each service still answers plain HTTP on its own port, on loopback.
"""

from conformance_tests.cloud import catalog
from conformance_tests.cloud import front_door
from conformance_tests.cloud import services as services_mod
from conformance_tests.common import ui


class LaunchContext(object):
    def __init__(self, descriptors, host, service_dir, workspace, ports,
                 secrets, region, settings, say=ui.say, ca_file=None):
        self.descriptors = descriptors
        self.host = host
        self.service_dir = service_dir
        self.workspace = workspace
        self.ports = ports            # {service: {listener: port}}
        self.secrets = secrets
        self.region = region
        self.settings = settings
        self.say = say
        self.ca_file = ca_file        # the TLS front door's CA, or None
        self.outputs = {}             # {service: what after_ready learnt}
        self._token = None

    def url(self, service, listener='api'):
        scheme = 'https' if (
            service == front_door.NAME and self.ca_file) else 'http'
        return '%s://%s:%d' % (scheme, self.host,
                               self.ports[service][listener])

    def catalog_url(self, service, entry):
        prefix = self.front_door_prefix(service, entry.listener)
        if prefix is None:
            return self.url(service, entry.listener) + entry.path
        # DevStack's form: http://host/image, http://host/compute/v2.1
        return self.url(front_door.NAME, front_door.LISTENER) + prefix + (
            '' if entry.path == '/' else entry.path)

    def front_door_prefix(self, service, listener='api'):
        """The prefix clients reach ``listener`` of ``service`` under, or
        None when they reach its own port."""
        if front_door.NAME not in self.ports:
            return None
        return front_door.prefix(self.descriptors, service, listener)

    @property
    def identity(self):
        return next(d for d in self.descriptors if d.provides_identity)

    @property
    def identity_uri(self):
        entry = next(e for e in self.identity.catalog
                     if e.type == 'identity')
        return self.catalog_url(self.identity.name, entry)

    def service_user(self, service):
        return self.secrets['services'][service]

    def admin_token(self):
        """One admin token per cloud start, fetched when first needed."""
        if self._token is None:
            self._token = catalog.admin_token(
                self.identity_uri, self.secrets['admin'], self.ca_file)
        return self._token

    def contributions(self, hook):
        return services_mod.contributions(self.descriptors, hook,
                                          self.settings)
