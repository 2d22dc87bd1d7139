"""Clustering (senlin) clients the suite registers with Tempest.

Tempest imports this module and builds each class named in ``__all__``
for every client manager: ``os_admin.conformance_clustering_v1.X()``.
"""

from conformance_tests.services.clustering.v1.clustering_client import (
    ClusteringClient)

__all__ = ['ClusteringClient']
