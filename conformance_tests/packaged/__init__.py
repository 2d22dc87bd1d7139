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
