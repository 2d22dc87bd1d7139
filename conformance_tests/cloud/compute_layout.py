"""The embedded cloud's compute layout, shared by launcher and nova process.

Four fake hosts over two cells. The anti-affinity zone holds three of them
(both cells); host4, in cell2, has a zone of its own, so the cell-outage
scenarios can put servers in the cell they take down, and a scenario
that leaks out of its configured zone shows.
"""

HOSTS = (('host1', 'cell1'), ('host2', 'cell1'), ('host3', 'cell2'),
         ('host4', 'cell2'))
ZONE = 'conformance-zone'
ZONE_HOSTS = ('host1', 'host2', 'host3')
DOWN_CELL = 'cell2'
DOWN_CELL_ZONE = 'conformance-cell2'
ZONES = {ZONE: ZONE_HOSTS, DOWN_CELL_ZONE: ('host4',)}
# From nova's DefaultFlavorsFixture (m1.tiny, m1.small).
FLAVOR = '1'
FLAVOR_ALT = '2'
