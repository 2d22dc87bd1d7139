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
