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

"""What the embedded cloud knows about one service: its descriptor.

A descriptor answers, for its own service only, every question the
launcher, the service processes and the client-file writers ask: which OS
process serves it, which sockets it listens on, which PyPI distribution
it runs, its config, its catalog entries and service user, when it is
ready, what it must wait for, its fragment of tempest.conf, its mutants,
and the hooks it offers other services. The launcher and the writers
iterate over descriptors and never name a service.

Two sides call a descriptor:
- the launcher, with a LaunchContext (cloud/launch_context.py), before the
  processes start (``write_config``), once every service answers
  (``after_ready``) and when it writes the client files (``tempest_conf``,
  ``accounts``, ``clouds``);
- the service process, with a ProcessContext (cloud/runtime.py), to build
  the WSGI apps it serves (``prepare_process`` in the zygote, then
  ``build`` in each process forked from it).
"""

import collections

# One socket a service serves: its name within the service, the path
# that answers (any HTTP status) once it is up, and the path the front
# door (cloud/front_door.py, the `front_door` setting) serves it under,
# DevStack's for that service; None: not behind the front door.
Listener = collections.namedtuple('Listener', 'name ready_path prefix',
                                  defaults=(None,))

# One entry in keystone's catalog: the service type, the listener it
# points at, and the path appended to that listener's root URL (behind
# the front door: to its prefix, a lone '/' dropped).
CatalogEntry = collections.namedtuple('CatalogEntry',
                                      'type listener path')

API = 'api'


class Service(object):
    """Base descriptor; a service overrides what applies to it."""

    #: Service name: the keystone service name, the key of its port(s),
    #: its service user (if any) and the `service` of its mutants.
    name = None
    #: The OS process that serves it. Services sharing a process name are
    #: built in one process, in start order.
    process = None
    #: PyPI distribution pinned in upper-constraints.txt; None for ours.
    distribution = None
    #: Sockets it serves; each gets the next free port slot.
    listeners = (Listener(API, '/'),)
    #: Entries registered in keystone's catalog.
    catalog = ()
    #: Whether it gets a keystone user in the `service` project.
    service_user = False
    #: Whether it is the identity service the others register with.
    provides_identity = False
    #: Names of services that must be ready before this one.
    depends_on = ()
    #: Dotted names of the modules registering its mutants.
    mutants_modules = ()
    #: Hooks other descriptors may contribute to ({hook name: meaning}).
    hooks_offered = {}
    #: Profile settings it reads, with their defaults.
    settings = {}
    #: The upstream modules its build imports: the zygote imports them
    #: once for every cloud a command starts, and `conformance bench`
    #: times importing them alone.
    imports = ()

    # -- launcher side ---------------------------------------------------
    def contributions(self, settings=None):
        """{hook name: value} this service adds to other services' hooks,
        in a cloud of ``settings`` (None: every setting at its default)."""
        return {}

    def write_config(self, ctx):
        """Write config files into ctx.service_dir before the processes
        start; return what the process needs (JSON-able) or None."""
        return None

    def after_ready(self, ctx):
        """Run once every service answers and the catalog is registered
        (what an operator does once: zones, images...). What it learns for
        its tempest.conf fragment goes into ctx.outputs[self.name]."""

    def tempest_conf(self, ctx):
        """{section: {option: value}} this service adds to tempest.conf."""
        return {}

    def accounts(self, ctx):
        """Entries this service adds to accounts.yaml."""
        return []

    def clouds(self, ctx):
        """{cloud name: entry} this service adds to clouds.yaml."""
        return {}

    # -- service-process side ----------------------------------------------
    def prepare_process(self):
        """Run once in the process's zygote, before its ``imports`` and
        before any cloud exists (environment and patching that must
        precede imports); every service process forked from it inherits
        the result."""

    def build(self, proc):
        """Return {listener name: WSGI app}; may block until the catalog
        is registered (proc.wait_for_catalog())."""
        raise NotImplementedError(self.name)

    def __repr__(self):
        return '<service %s>' % self.name
