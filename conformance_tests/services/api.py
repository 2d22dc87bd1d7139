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

"""What the suite knows about one tested API: its declaration.

An API package (``services/<api>/v<N>/``) binds ``API`` to an instance of
a subclass of ``Api``. The plugin registers its clients and options from
it (plugin.py), `conformance cleanup` assembles its plan from its
``cleanup`` steps (cleanup/plan.py), the report reads its capability
files beside guidelines/ (report/guidelines.py), and `conformance
preflight` checks its catalog endpoint and microversions (preflight/).
None of those names an API: they iterate over the registry
(services/__init__.py).
"""

import collections
import importlib
import os

# One kind of leftover in the cleanup plan.
# - stage: where it goes among every API's kinds (STAGES says why);
# - kind: a cleanup.kinds.Kind;
# - needs: the cleanup context attribute the kind reads (a client);
# - make(manager, conf): {context attribute: value} for an admin client
#   manager and Tempest's CONF, with ``needs`` among them, or {} when the
#   cloud does not offer the service;
# - service: the name `conformance cleanup` reports as "not searched"
#   when the cloud lacks it, or None for a service most clouds lack.
CleanupStep = collections.namedtuple('CleanupStep',
                                     'stage kind needs make service')

# What an API's clients look up in the token's catalog (Api.catalog):
# a service type, an interface (public, internal, admin) and a region,
# with the tempest.conf options they came from (None: not configurable,
# or the catalog type is the API's default).
CatalogLookup = collections.namedtuple(
    'CatalogLookup', 'service_type interface region type_option '
                     'interface_option region_option')

# Tempest's default of [identity] region, every API's region when its
# own group names none.
IDENTITY_REGION = 'RegionOne'

# The order leftovers go in, whichever API they belong to: what holds
# others goes first.
STAGES = {
    'cells': 0,          # a server in a down cell can be neither listed
                         # nor deleted
    'owners': 10,        # clusters (deleting one deletes its servers)
    'leases': 20,        # ending a lease gives its host back
    'servers': 30,       # then their groups can go
    'enrolments': 40,    # a host a lease or server holds cannot leave
    'compute': 50,       # flavors, aggregates, quotas
    'identity': 60,      # users, then their projects
    'placement': 70,     # providers, then classes and traits
}


class Api(object):
    """Base declaration; an API overrides what applies to it."""

    #: Name of the client registration: ``os_admin.<name>.X()``.
    name = None
    #: Tempest's service_version of the registration (unique).
    service_version = None
    #: The module whose ``__all__`` Tempest builds (None: no client of
    #: ours, as for identity, whose clients are Tempest's own).
    client_module = None
    #: The Tempest config group whose client settings (catalog type,
    #: endpoint type, region, timeouts) the clients read.
    config_group = None
    #: A BoolOpt registered in [service_available], or None.
    service_option = None
    #: (module, attribute) of the same [service_available] flag in the
    #: service's own Tempest plugin (blazar-tempest-plugin, ...), or None.
    #: oslo.config refuses a second option of one name that differs in
    #: default or help (DuplicateOptError), and Tempest's plugin manager
    #: only logs that: whichever plugin loads second would lose its
    #: options. Where that plugin is installed its flag is the one both
    #: register (the same object, which oslo.config accepts twice), so
    #: neither load order loses anything and the flag's default is the
    #: service plugin's, whatever the order.
    service_plugin_option = None
    #: Further option groups: ((cfg.OptGroup, [options]), ...).
    option_groups = ()
    #: Its kinds of leftovers (CleanupStep).
    cleanup = ()
    #: Capability files of its own, read with guidelines/ (paths).
    guidelines = ()

    # Where its clients find it in the catalog, read by `conformance
    # preflight` (preflight/) from tempest.conf's text, as Tempest would.
    #: Catalog type, unless [config_group] catalog_type says otherwise
    #: (None: the suite does not look it up in the catalog).
    catalog_type = None
    #: The [config_group] option naming the interface, and its default.
    endpoint_type_option = 'endpoint_type'
    endpoint_type = 'publicURL'
    #: A [service_available] flag of Tempest's own that enables it, with
    #: Tempest's default, e.g. ('nova', True); an API registering its own
    #: flag (service_option) leaves this None.
    tempest_flag = None
    #: Whether [config_group] min_microversion / max_microversion bound
    #: the microversions its tests send; preflight checks them against
    #: the range the cloud's version document offers.
    microversions = False

    def client_params(self, conf):
        """The registration Tempest's get_service_clients() wants."""
        from tempest import config
        params = {
            'name': self.name,
            'service_version': self.service_version,
            'module_path': self.client_module,
            'client_names': _client_names(self.client_module),
        }
        params.update(config.service_client_config(self.config_group))
        return params

    def option_lists(self):
        """(group name, options) for Tempest's get_opt_lists()."""
        lists = [(group.name, opts) for group, opts in self.option_groups]
        flag = self.flag_option()
        if flag is not None:
            lists.append(('service_available', [flag]))
        return lists

    def flag_option(self):
        """The [service_available] BoolOpt to register: the service
        plugin's (service_plugin_option) where that plugin is installed,
        else ours (service_option); None when it registers no flag."""
        if self.service_option is None or not self.service_plugin_option:
            return self.service_option
        module_name, attribute = self.service_plugin_option
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            return self.service_option
        theirs = getattr(module, attribute, None)
        if isinstance(theirs, (list, tuple)):
            theirs = next((o for o in theirs
                           if o.name == self.service_option.name), None)
        if theirs is None or theirs.name != self.service_option.name:
            return self.service_option
        return theirs

    def available_flag(self):
        """([service_available] option, default) that enables it, or None
        when nothing can disable it (identity)."""
        flag = self.flag_option()
        if flag is not None:
            return flag.name, flag.default
        return self.tempest_flag

    def catalog(self, conf):
        """The CatalogLookup its clients make, for ``conf``: anything with
        ``get(group, option)`` giving an option's text as tempest.conf
        writes it, or None when unset (not Tempest's CONF: preflight must
        explain a conf that Tempest would choke on)."""
        group = self.config_group

        def option(name):
            value = conf.get(group, name) if group else None
            return (value or '').strip() or None

        service_type = option('catalog_type') or self.catalog_type
        interface = option(self.endpoint_type_option) or self.endpoint_type
        region = option('region')
        region_option = '[%s] region' % group
        if region is None:
            region = (conf.get('identity', 'region') or '').strip() or \
                IDENTITY_REGION
            region_option = '[identity] region'
        return CatalogLookup(
            service_type=service_type,
            interface=interface.replace('URL', ''),
            region=region,
            type_option=('[%s] catalog_type' % group
                         if option('catalog_type') else None),
            interface_option=('[%s] %s' % (group, self.endpoint_type_option)
                              if group else None),
            region_option=region_option)

    def __repr__(self):
        return '<api %s>' % (self.name or type(self).__name__)


def _client_names(module_path):
    return list(importlib.import_module(module_path).__all__)


def beside(module_file, *names):
    """Paths of files in the folder of ``module_file`` (an API package's
    ``__file__``): its own capability files."""
    folder = os.path.dirname(os.path.abspath(module_file))
    return tuple(os.path.join(folder, n) for n in names)
