"""The embedded cloud's fake hypervisors: how long they take to destroy a
server, and the hypervisor hostname they report.

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
compute's own worker thread, as the hypervisor's work would. Nothing else
of the driver changes, and nova's code is not touched: only the one
driver object of that host.

A compute may also be started with a hypervisor hostname of its own
(``nodename``): nova's fake driver reports one node named after its
service host (``FakeDriver.init_host``), where libvirt reports the
machine's hostname, often an FQDN (``host1.vendor.example`` for service
host ``host1``). Nova names the compute node, and placement its
resource provider, after what the driver reports.
"""

import contextlib
import functools
import time


def give_destroy_time(driver, seconds):
    """Make ``driver`` (one compute's virt driver) take ``seconds`` to
    destroy a server. 0 leaves it as it is."""
    if not seconds:
        return driver
    destroy = driver.destroy

    @functools.wraps(destroy)
    def timed_destroy(*args, **kwargs):
        time.sleep(seconds)
        return destroy(*args, **kwargs)

    driver.destroy = timed_destroy
    driver.conformance_destroy_seconds = seconds
    return driver


@contextlib.contextmanager
def nodename(name):
    """While a compute starts in this block, its fake driver reports the
    one node ``name`` instead of its service host (None: as it is).

    The driver sets its nodes in ``init_host`` (``_set_nodes``, what nova's
    own tests use to name nodes), which the compute manager calls as the
    service starts and before the resource tracker first reads the nodes;
    computes start one at a time, so the class is patched for the start
    only."""
    if not name:
        yield
        return
    from nova.virt import fake
    init_host = fake.FakeDriver.init_host

    def init_named_host(self, host):
        init_host(self, host)
        self._set_nodes([name])

    fake.FakeDriver.init_host = init_named_host
    try:
        yield
    finally:
        fake.FakeDriver.init_host = init_host
