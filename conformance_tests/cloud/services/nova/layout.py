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

"""The embedded cloud's compute layout, shared by launcher and nova process.

Four fake hosts over two cells. The anti-affinity zone holds three of them
(both cells); host4, in cell2, has a zone of its own, so the cell-outage
scenarios can put servers in the cell they take down, and a scenario
that leaks out of its configured zone shows.

`conformance cloud up --computes N` (cloud setting ``zone_computes``)
grows the anti-affinity zone to N hosts for the scale benchmark: hosts
host5, host6, ... join it, alternating between the cells. The four
hosts above stay where they are, in the zones they are in, so every
other scenario sees today's layout; hosts other services add (blazar's
freepool) keep their own names and no zone of ours.
"""

HOSTS = (('host1', 'cell1'), ('host2', 'cell1'), ('host3', 'cell2'),
         ('host4', 'cell2'))
ZONE = 'conformance-zone'
ZONE_HOSTS = ('host1', 'host2', 'host3')
DOWN_CELL = 'cell2'
DOWN_CELL_ZONE = 'conformance-cell2'
ZONES = {ZONE: ZONE_HOSTS, DOWN_CELL_ZONE: ('host4',)}
CELLS = ('cell1', 'cell2')
# The anti-affinity zone's size by default, and its largest: nova's fake
# computes are threads of one process, and far beyond this the benchmark
# would measure the interpreter, not the scheduler.
DEFAULT_ZONE_COMPUTES = len(ZONE_HOSTS)
MAX_ZONE_COMPUTES = 64
# From nova's DefaultFlavorsFixture (m1.tiny, m1.small).
FLAVOR = '1'
FLAVOR_ALT = '2'
# The larger of the two flavors' RAM (m1.small), so a grown zone's quota
# holds its fill whichever flavor a scenario boots.
FLAVOR_RAM_MB = 2048


class LayoutError(ValueError):
    """A layout that cannot be built; the message says what to change."""


def _extra_zone_hosts(zone_computes):
    if not DEFAULT_ZONE_COMPUTES <= zone_computes <= MAX_ZONE_COMPUTES:
        raise LayoutError(
            '%s hosts: the anti-affinity zone holds from %d (today\'s '
            'host1-host3, which never move) to %d hosts' % (
                zone_computes, DEFAULT_ZONE_COMPUTES, MAX_ZONE_COMPUTES))
    first = len(HOSTS) + 1
    return tuple(('host%d' % n, CELLS[(n - first) % len(CELLS)])
                 for n in range(first, first + zone_computes -
                                DEFAULT_ZONE_COMPUTES))


def hosts(zone_computes=DEFAULT_ZONE_COMPUTES):
    """(host, cell) of every compute of ours, HOSTS first."""
    return HOSTS + _extra_zone_hosts(zone_computes)


def zones(zone_computes=DEFAULT_ZONE_COMPUTES):
    """{zone: hosts}; only the anti-affinity zone grows."""
    extra = tuple(h for h, _ in _extra_zone_hosts(zone_computes))
    return dict(ZONES, **{ZONE: ZONE_HOSTS + extra})
