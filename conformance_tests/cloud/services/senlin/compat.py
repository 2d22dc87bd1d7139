"""Shims that let senlin 16 (2023, retired) run on today's libraries.

Each shim is the smallest change that removes one incompatibility, with
the reason beside it. None touches the affinity policy, its profile type
or anything the seed checks: they are start-up and library glue only.
``apply()`` runs in senlin's process before senlin is imported.
"""

SHIMS = []


def shim(func):
    SHIMS.append(func)
    return func


def apply():
    for func in SHIMS:
        func()


@shim
def server_group_policies():
    """openstacksdk 4 finds server groups at the newest compute
    microversion, where nova answers ``policy`` (one string) and no
    ``policies`` list (2.64); senlin 16, written for 2.1, reads
    ``group.policies[0]``. Fill ``policies`` from ``policy`` on found
    groups, as the older microversion would have answered."""
    from openstack.compute.v2 import _proxy

    original = _proxy.Proxy.find_server_group

    def find_server_group(self, *args, **kwargs):
        group = original(self, *args, **kwargs)
        if group is not None and not group.policies and group.policy:
            group.policies = [group.policy]
        return group

    _proxy.Proxy.find_server_group = find_server_group


@shim
def hypervisor_hostname():
    """openstacksdk renamed Hypervisor.hypervisor_hostname to ``name``
    (the API field is still hypervisor_hostname); senlin 16's DRS lookup
    reads the old attribute. Give it back as a read-only alias."""
    from openstack.compute.v2 import hypervisor

    if not hasattr(hypervisor.Hypervisor, 'hypervisor_hostname'):
        hypervisor.Hypervisor.hypervisor_hostname = property(
            lambda self: self.name)
