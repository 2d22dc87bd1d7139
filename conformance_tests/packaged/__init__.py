"""A real deployment beside the embedded cloud: Debian 13's packaged
OpenStack 2025.1 in a chroot (`conformance packaged up|down|run|status`).

Nothing here patches upstream: the packages are Debian's, the cloud is
a target like a vendor's, and the suite reaches it only through the
tempest.conf this package writes (doc/packaged-cloud.md).

- ``chroot.py``: the built root (debootstrap + apt, once, cached) and each
  cloud's root over it (an overlay: a fresh state for every `up`), its
  mounts, and running commands inside it;
- ``layout.py``: ports, hosts, cells, zones, what the deployment is;
- ``configs.py``: every service's configuration files;
- ``processes.py``: the daemons, started inside the root, stopped by pid;
- ``deploy.py``: `up` in order (databases, schemas, identities, cells,
  computes, zones, blazar) and `down`;
- ``tempest_files.py``: the tempest.conf and member accounts a vendor
  would write for this cloud (0600).
"""
