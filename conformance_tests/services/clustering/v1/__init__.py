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

"""Clustering (senlin) clients the suite registers with Tempest.

Tempest imports this module and builds each class named in ``__all__``
for every client manager: ``os_admin.conformance_clustering_v1.X()``.
"""

from oslo_config import cfg

from conformance_tests.services import api
from conformance_tests.services.clustering.v1 import cleanup
from conformance_tests.services.clustering.v1.clustering_client import (
    ClusteringClient)

__all__ = ['ClusteringClient']


def _clients(manager, conf):
    if not conf.service_available.senlin:
        return {}
    return {'clustering_client':
            manager.conformance_clustering_v1.ClusteringClient()}


class Clustering(api.Api):
    name = 'conformance_clustering_v1'
    service_version = 'conformance-clustering.v1'
    client_module = __name__
    # No config group: catalog type, interface and region as in
    # client_params below.
    catalog_type = 'clustering'
    service_option = cfg.BoolOpt(
        'senlin', default=False,
        help='Whether the clustering API (senlin) is expected to be '
             'available (seed 002).')
    service_plugin_option = ('senlin_tempest_plugin.config',
                             'service_option')
    _stage = api.STAGES['owners']
    # Optional (seed 002 only): a cloud without it is not reported as
    # "not searched". A cluster goes first (senlin deletes its servers),
    # then the policies and profiles it used.
    cleanup = (
        api.CleanupStep(_stage, cleanup.Clusters(), 'clustering_client',
                        _clients, None),
        api.CleanupStep(_stage + 1, cleanup.Policies(), 'clustering_client',
                        _clients, None),
        api.CleanupStep(_stage + 2, cleanup.Profiles(), 'clustering_client',
                        _clients, None),
    )

    def client_params(self, conf):
        """Tempest has no clustering config group: the catalog type is
        senlin's, region and endpoint type Tempest's identity ones,
        timeouts [compute]'s (a senlin action waits on nova's builds)."""
        params = super().client_params(conf)
        params.update(service='clustering', region=conf.identity.region,
                      endpoint_type='publicURL',
                      build_timeout=conf.compute.build_timeout,
                      build_interval=conf.compute.build_interval)
        return params


API = Clustering()
