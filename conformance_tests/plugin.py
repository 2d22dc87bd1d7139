"""Tempest plugin entry point for the conformance suite."""

import os

from tempest import config
from tempest.test_discover import plugins

from conformance_tests import config as project_config


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

    def get_opt_lists(self):
        return [
            (project_config.conformance_group.name,
             project_config.ConformanceGroup),
            ('service_available', project_config.service_option),
        ]

    def get_service_clients(self):
        return []
