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

"""Tempest plugin entry point for the conformance suite.

Options and clients come from the API declarations (services/): the
plugin names no API.
"""

import os

from tempest import config
from tempest.test_discover import plugins

from conformance_tests import config as project_config
from conformance_tests import services


def option_lists():
    """(group name, options) of [conformance] and of every API."""
    lists = [(project_config.conformance_group.name,
              project_config.ConformanceGroup)]
    for api in services.all():
        lists += api.option_lists()
    return lists


def _groups():
    """{group name: OptGroup} Tempest does not already have."""
    found = {project_config.conformance_group.name:
             project_config.conformance_group,
             'service_available': config.service_available_group}
    for api in services.all():
        for group, _ in api.option_groups:
            found[group.name] = group
    return found


class ConformancePlugin(plugins.TempestPlugin):
    def load_tests(self):
        base_path = os.path.split(os.path.dirname(
            os.path.abspath(__file__)))[0]
        test_dir = 'conformance_tests'
        full_test_dir = os.path.join(base_path, test_dir)
        return full_test_dir, base_path

    def register_opts(self, conf):
        groups = _groups()
        for name, options in option_lists():
            config.register_opt_group(conf, groups[name], options)

    def get_opt_lists(self):
        return option_lists()

    def get_service_clients(self):
        """Each API's clients, registered once: every client manager
        (os_admin, os_primary, ...) then offers ``<name>.<Class>()``,
        built with the manager's credentials and Tempest's settings of the
        API's config group: catalog type, endpoint type, region, build
        timeout and interval, TLS, http_timeout, proxy."""
        return [api.client_params(config.CONF) for api in services.all()
                if api.client_module]
