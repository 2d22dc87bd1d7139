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

"""Identity (keystone): Tempest's own clients; what the suite declares is
the cleanup of the users and projects a run made."""

from conformance_tests.services import api
from conformance_tests.services.identity import cleanup


def _clients(manager, conf):
    return {'users_client': manager.users_v3_client,
            'projects_client': manager.projects_client}


class Identity(api.Api):
    # Tempest's [identity] group; always enabled (no flag).
    config_group = 'identity'
    catalog_type = 'identity'
    endpoint_type_option = 'v3_endpoint_type'
    endpoint_type = 'public'
    cleanup = (
        api.CleanupStep(api.STAGES['identity'], cleanup.Users(),
                        'users_client', _clients, 'keystone'),
        api.CleanupStep(api.STAGES['identity'] + 1, cleanup.Projects(),
                        'projects_client', _clients, 'keystone'),
    )


API = Identity()
