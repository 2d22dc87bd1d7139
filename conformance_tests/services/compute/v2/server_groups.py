"""Server groups removed by their names, whatever view failed the test."""

from tempest.lib.common.utils import test_utils

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
