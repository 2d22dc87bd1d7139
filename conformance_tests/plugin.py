"""Tempest plugin entry point for the conformance suite."""

import os

from tempest import config
from tempest.test_discover import plugins

from conformance_tests import config as project_config
from conformance_tests.services.clustering import v1 as clustering_services
from conformance_tests.services import compute as compute_services
from conformance_tests.services import placement as placement_services
from conformance_tests.services.reservation import v1 as reservation_services


def _service_clients(name, service_version, config_group, module):
    """Registration of one client module, as Tempest's plugin API wants.

    Every client manager (os_admin, os_primary, ...) then offers
    ``<name>.<Class>()``, built with the manager's credentials and
    Tempest's settings of ``config_group``: catalog type, endpoint type,
    region, build timeout and interval, TLS (disable_ssl_certificate_
    validation, ca_certificates_file), http_timeout, proxy.
    """
    params = {
        'name': name,
        # Tempest owns 'compute' and 'placement' (and blazar-tempest-plugin
        # 'reservation'); ours must not clash.
        'service_version': service_version,
        'module_path': module.__name__,
        'client_names': module.__all__,
    }
    params.update(config.service_client_config(config_group))
    return params


def _clustering_clients():
    """Tempest has no clustering config group: the catalog type is
    senlin's, region and endpoint type Tempest's identity ones, timeouts
    [compute]'s (a senlin action waits on nova's builds)."""
    params = _service_clients('conformance_clustering_v1',
                              'conformance-clustering.v1', None,
                              clustering_services)
    conf = config.CONF
    params.update(service='clustering', region=conf.identity.region,
                  endpoint_type='publicURL',
                  build_timeout=conf.compute.build_timeout,
                  build_interval=conf.compute.build_interval)
    return params


class ConformancePlugin(plugins.TempestPlugin):
    def load_tests(self):
        base_path = os.path.split(os.path.dirname(
            os.path.abspath(__file__)))[0]
        test_dir = 'conformance_tests'
        full_test_dir = os.path.join(base_path, test_dir)
        return full_test_dir, base_path

    def register_opts(self, conf):
        config.register_opt_group(
            conf, config.service_available_group,
            project_config.service_option)
        config.register_opt_group(
            conf, project_config.conformance_group,
            project_config.ConformanceGroup)
        config.register_opt_group(
            conf, project_config.reservation_group,
            project_config.ReservationGroup)

    def get_opt_lists(self):
        return [
            (project_config.conformance_group.name,
             project_config.ConformanceGroup),
            (project_config.reservation_group.name,
             project_config.ReservationGroup),
            ('service_available', project_config.service_option),
        ]

    def get_service_clients(self):
        return [
            _service_clients('conformance_placement_v1',
                             'conformance-placement.v1', 'placement',
                             placement_services),
            _service_clients('conformance_compute_v2',
                             'conformance-compute.v2', 'compute',
                             compute_services),
            _clustering_clients(),
            _service_clients('conformance_reservation_v1',
                             'conformance-reservation.v1',
                             project_config.reservation_group.name,
                             reservation_services),
        ]
