"""A vendor's cloud, described by its own tempest.conf: the checks of
that file and the Tempest workspace the suite runs it from."""
