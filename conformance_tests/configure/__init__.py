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

"""`conformance config`: a tempest.conf for a cloud, from its credentials.

python-tempestconf (tempestconf.py) writes Tempest's own sections, as
RDO and other distributions use it; discover.py adds what the suite
needs and the cloud's API can tell (the [service_available] flags of
the suite's services, the zone the scheduling scenarios fill, blazar's
freepool hosts, a vSphere DRS hypervisor); writer.py merges the two,
the user's own values winning, and names what no API can tell (the
cell-outage commands, whether disruption is allowed).
"""
