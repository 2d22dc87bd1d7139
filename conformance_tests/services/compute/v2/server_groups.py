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

"""Server groups removed by their names, whatever view failed the test,
and whether a deleted group is gone."""

from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc

# The soft-(anti-)affinity policies exist from 2.15: nova cannot show one
# of them in an older view.
LIST_MICROVERSION = '2.15'


def delete_matching(raw_client, groups_client, match):
    """Delete the project's server groups whose name ``match`` accepts.

    Listed raw (RawComputeClient), not through Tempest's schema-checked
    method: a cleanup must still find the groups when the view is the
    very thing that failed the test."""
    listed = raw_client.get('os-server-groups',
                            LIST_MICROVERSION)['server_groups']
    for group in listed:
        if match(group['name']):
            test_utils.call_and_ignore_notfound_exc(
                groups_client.delete_server_group, group['id'])


def still_there(groups_client, group_id):
    """None when GET /os-server-groups/{id} is 404 (the group is gone),
    else what the API answered: a client's delete that exited 0, or a
    client's show that failed, proves nothing by itself."""
    try:
        groups_client.show_server_group(group_id)
    except lib_exc.NotFound:
        return None
    except lib_exc.RestClientException as e:
        return 'GET /os-server-groups/%s answered %s, not 404' % (
            group_id, getattr(e.resp, 'status', None) or e)
    return 'GET /os-server-groups/%s still shows the group' % group_id
