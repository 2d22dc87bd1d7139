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

"""The embedded cloud's services, one descriptor each (see base.py).

Adding a service is: write cloud/services/<name>/ (its __init__.py
binds SERVICE) and add its module to REGISTERED below. Nothing else in
the launcher, the service processes or the writers names a service.
"""

import importlib

# The one registration point. Order is the tie-break of the start order;
# `depends_on` decides the rest.
REGISTERED = (
    'conformance_tests.cloud.services.keystone',
    'conformance_tests.cloud.services.placement',
    'conformance_tests.cloud.services.nova.network_stub',
    'conformance_tests.cloud.services.nova',
    'conformance_tests.cloud.services.glance',
    'conformance_tests.cloud.services.senlin.orchestration_stub',
    'conformance_tests.cloud.services.senlin',
    'conformance_tests.cloud.services.blazar',
)


class RegistryError(Exception):
    pass


def all(modules=REGISTERED):
    """The descriptors, in start order (every dependency first).

    (Shadows the builtin inside this module: nothing here uses it.)
    """
    return start_order(
        [importlib.import_module(m).SERVICE for m in modules])


def get(name, modules=REGISTERED):
    for service in all(modules):
        if service.name == name:
            return service
    raise LookupError('no service %r' % name)


def start_order(descriptors):
    """Order ``descriptors`` so each comes after what it depends on,
    otherwise keeping the given order."""
    by_name = {}
    for d in descriptors:
        if d.name in by_name:
            raise RegistryError('service %s is registered twice' % d.name)
        by_name[d.name] = d
    ordered, placed = [], set()
    pending = list(descriptors)
    while pending:
        for d in pending:
            missing = [n for n in d.depends_on if n not in by_name]
            if missing:
                raise RegistryError('%s depends on unknown service(s) %s' % (
                    d.name, ', '.join(missing)))
            if all_in(d.depends_on, placed):
                ordered.append(d)
                placed.add(d.name)
                pending.remove(d)
                break
        else:
            raise RegistryError('dependency cycle among: %s' % ', '.join(
                d.name for d in pending))
    return ordered


def serving(catalog_types, processes=(), descriptors=None):
    """The descriptors a cloud needs to serve ``catalog_types`` (and to
    run ``processes``), in start order: those with one of the types in
    their catalog or running in one of the processes, every descriptor
    sharing a process with one of those (a process builds all of its
    services: nova's network stub, senlin's orchestration stub), and
    what each depends on.

    A mutant's cloud runs only what its targets' tests call
    (cmd/mutants.py): starting services nobody calls is most of its
    start (doc/bench.md, "Mutant runs"). ValueError names a type no
    descriptor serves.
    """
    descriptors = descriptors or all()
    served = {e.type for d in descriptors for e in d.catalog}
    unknown = sorted(set(catalog_types) - served)
    if unknown:
        raise ValueError('no embedded service serves %s (served: %s)' % (
            ', '.join(unknown), ', '.join(sorted(served))))
    by_name = {d.name: d for d in descriptors}
    kept = {d.name for d in descriptors
            if d.process in processes or any(
                e.type in catalog_types for e in d.catalog)}
    while True:
        more = {d.name for d in descriptors
                if d.process in {by_name[n].process for n in kept}}
        for name in set(kept):
            more.update(by_name[name].depends_on)
        if more <= kept:
            return [d for d in descriptors if d.name in kept]
        kept |= more


def all_in(names, placed):
    return not set(names) - placed


def assign_ports(descriptors, port_base):
    """{service: {listener: port}}: consecutive ports from port_base, one
    per listener, in start order (no hand-numbered offsets)."""
    ports, port = {}, port_base
    for d in descriptors:
        for listener in d.listeners:
            ports.setdefault(d.name, {})[listener.name] = port
            port += 1
    return ports


# Settings of the whole cloud rather than of one service.
CLOUD_SETTINGS = {
    # Apply every service's spec references (mutants.reference), the
    # `spec-reference` profile.
    'spec_reference': False,
    # The region of every endpoint: keystone's catalog, each service's
    # config that names one, tempest.conf and clouds.yaml.
    'region': 'RegionOne',
    # Serve every API under its DevStack path prefix (a listener's
    # `prefix`) on one more port, and register those URLs in the catalog,
    # tempest.conf and clouds.yaml (cloud/front_door.py). Each service
    # still answers on its own port too.
    'front_door': False,
    # The front door speaks HTTPS with a private CA made for each start
    # (cloud/tls.py): the catalog's URLs are https, and tempest.conf,
    # clouds.yaml and every service's own client name the CA bundle.
    'tls': False,
}


def resolve_settings(descriptors, given):
    """Every setting the descriptors read, with ``given`` applied; an
    unknown name is a TypeError, as for any unexpected keyword."""
    known = dict(CLOUD_SETTINGS)
    for d in descriptors:
        known.update(d.settings)
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise TypeError('unknown cloud setting(s): %s (known: %s)' % (
            ', '.join(unknown), ', '.join(sorted(known))))
    return dict(known, **given)


def contributions(descriptors, hook, settings=None):
    """Values every descriptor contributes to ``hook`` in a cloud of
    ``settings``, in start order."""
    given = [d.contributions(settings) for d in descriptors]
    return [c[hook] for c in given if hook in c]
