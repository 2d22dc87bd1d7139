"""How long the embedded cloud's fake hypervisors take to destroy a server.

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
"""

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
