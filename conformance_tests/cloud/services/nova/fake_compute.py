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

"""The embedded cloud's fake hypervisors: how long they take to destroy a
server, the hypervisor hostname they report and their size.

nova's fake virt driver destroys a server the instant the compute asks; a
real hypervisor takes seconds (a libvirt guest is powered off, its disks,
ports and console are torn down before nova marks the server deleted).
Code that acts on a host right after asking nova to delete the host's
servers, without waiting for them to be gone, races those seconds. On the
fake driver such code wins the race now and then, on a real cloud it
loses: a conformance verdict must not depend on that coin.

A compute may therefore be started with a destroy time: its driver's
``destroy`` (what nova's compute manager calls while deleting a server,
before the server is marked deleted) sleeps that long first, on the
compute's own worker thread, as the hypervisor's work would. A user may
be given a time of their own: the deletes that user asks take it (nova's
request context names who asked; blazar's evictions, blazar/__init__.py
says why). Nothing else of the driver changes, and nova's code is not
touched: only the one driver object of that host.

A compute may also be started with a hypervisor hostname of its own
(``nodename``): nova's fake driver reports one node named after its
service host (``FakeDriver.init_host``), where libvirt reports the
machine's hostname, often an FQDN (``host1.vendor.example`` for service
host ``host1``). Nova names the compute node, and placement its
resource provider, after what the driver reports.

And a compute may be started with a size of its own (``size``): nova's
``MediumFakeDriver`` reports 10 vCPUs, 8192 MB of RAM and 1028 GB of disk,
a host so small that every fill of it fits nova's default quota; a real
host (and nova's plain ``FakeDriver``, 800000 MB) is far bigger, and a
test that fills one must size its quota too. The driver reports the
size it was given to the resource tracker, and so to placement's
inventory.
"""

import contextlib
import functools
import time


def give_destroy_time(driver, seconds, by_user=None):
    """Make ``driver`` (one compute's virt driver) take ``seconds`` to
    destroy a server, or ``by_user[name]`` seconds when user ``name``
    asked for the delete (nova's request context names who asked). 0 and
    no ``by_user`` leave it as it is."""
    by_user = dict(by_user or {})
    if not seconds and not by_user:
        return driver
    destroy = driver.destroy

    @functools.wraps(destroy)
    def timed_destroy(context, *args, **kwargs):
        time.sleep(by_user.get(getattr(context, 'user_name', None),
                               seconds))
        return destroy(context, *args, **kwargs)

    driver.destroy = timed_destroy
    driver.conformance_destroy_seconds = seconds
    return driver


@contextlib.contextmanager
def _after_init_host(then):
    """While a compute starts in this block, ``then(driver)`` runs right
    after its fake driver's ``init_host``: the compute manager calls it
    as the service starts, before the resource tracker first reads the
    driver's nodes and resources. Computes start one at a time, so the
    class is patched for the start only."""
    from nova.virt import fake
    init_host = fake.FakeDriver.init_host

    def patched_init_host(self, host):
        init_host(self, host)
        then(self)

    fake.FakeDriver.init_host = patched_init_host
    try:
        yield
    finally:
        fake.FakeDriver.init_host = init_host


@contextlib.contextmanager
def nodename(name):
    """While a compute starts in this block, its fake driver reports the
    one node ``name`` instead of its service host (None: as it is).

    The driver sets its nodes in ``init_host`` (``_set_nodes``, what nova's
    own tests use to name nodes)."""
    if not name:
        yield
        return
    with _after_init_host(lambda driver: driver._set_nodes([name])):
        yield


@contextlib.contextmanager
def size(resources):
    """While a compute starts in this block, its fake driver reports
    ``resources`` (``{'vcpus': N, 'memory_mb': N, 'local_gb': N}``)
    instead of its class's size (None or empty: as it is).

    ``update_provider_tree`` (placement's inventory) reads the driver's
    attributes, ``get_available_resource`` its ``resources``."""
    if not resources:
        yield
        return

    def resize(driver):
        from nova.virt import fake
        for name, value in resources.items():
            setattr(driver, name, value)
        driver.resources = fake.Resources(**resources)

    with _after_init_host(resize):
        yield
