"""What the suite knows about one tested API: its declaration.

An API package (``services/<api>/v<N>/``) binds ``API`` to an instance of
a subclass of ``Api``. The plugin registers its clients and options from
it (plugin.py), `conformance cleanup` assembles its plan from its
``cleanup`` steps (cleanup/plan.py), and the report reads its capability
files beside guidelines/ (report/guidelines.py). None of those names an
API: they iterate over the registry (services/__init__.py).
"""

import collections
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
    #: Further option groups: ((cfg.OptGroup, [options]), ...).
    option_groups = ()
    #: Its kinds of leftovers (CleanupStep).
    cleanup = ()
    #: Capability files of its own, read with guidelines/ (paths).
    guidelines = ()

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
        if self.service_option is not None:
            lists.append(('service_available', [self.service_option]))
        return lists

    def __repr__(self):
        return '<api %s>' % (self.name or type(self).__name__)


def _client_names(module_path):
    import importlib
    return list(importlib.import_module(module_path).__all__)


def beside(module_file, *names):
    """Paths of files in the folder of ``module_file`` (an API package's
    ``__file__``): its own capability files."""
    folder = os.path.dirname(os.path.abspath(module_file))
    return tuple(os.path.join(folder, n) for n in names)
