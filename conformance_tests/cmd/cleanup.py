"""`conformance cleanup`: repair what an interrupted run left behind.

Tests remove their own resources and bring back any cell they took down,
also when they fail; a run killed mid-way cannot. This brings the
configured cell ([conformance] cell_down_name) up, then removes what
carries the configured prefix: resource providers named <prefix>-*, then
CUSTOM_<PREFIX>_* resource classes and traits.
"""

import os


class CleanupError(Exception):
    pass


def add_parser(sub, common):
    parser = sub.add_parser('cleanup', help=(
        'remove resources left by an interrupted run'))
    common(parser)
    parser.add_argument('--tempest-conf', help=(
        'the cloud to clean (default: the embedded cloud running from '
        '--workdir)'))
    parser.add_argument('--dry-run', action='store_true',
                        help='list what would be removed')
    parser.set_defaults(func=cmd_cleanup)


def _depth(provider, by_uuid):
    depth, parent = 0, provider.get('parent_provider_uuid')
    while parent in by_uuid:
        depth += 1
        parent = by_uuid[parent].get('parent_provider_uuid')
    return depth


def _client(conf_path):
    os.environ['TEMPEST_CONFIG_DIR'] = os.path.dirname(conf_path)
    os.environ['TEMPEST_CONFIG'] = os.path.basename(conf_path)
    from tempest import clients
    from tempest.common import credentials_factory
    from tempest import config

    from conformance_tests.services.placement import topology_client
    conf = config.CONF
    creds = credentials_factory.get_configured_admin_credentials()
    manager = clients.Manager(creds)
    client = topology_client.TopologyClient(
        manager.auth_provider, conf.placement.catalog_type,
        conf.placement.region or conf.identity.region,
        endpoint_type=conf.placement.endpoint_type)
    return client, conf.conformance.resource_prefix


def _bring_cell_back(conf_path, say):
    """A run killed during an outage leaves its cell down: bring it up."""
    from tempest import config

    from conformance_tests.common import faults
    conf = config.CONF
    fault = faults.backend(conf)
    cell = conf.conformance.cell_down_name
    if fault and cell:
        fault.cell_up(cell)
        say('cell %s is up' % cell)


def cmd_cleanup(args, say=print):
    conf_path = os.path.abspath(args.tempest_conf or os.path.join(
        args.workdir, 'workspace', 'etc', 'tempest.conf'))
    if not os.path.isfile(conf_path):
        raise CleanupError('no tempest.conf at %s: pass --tempest-conf, or '
                           'start the embedded cloud first' % conf_path)
    client, prefix = _client(conf_path)
    custom = 'CUSTOM_%s_' % prefix.upper().replace('-', '_')
    providers = [p for p in client.list_providers()
                 if p['name'].startswith(prefix + '-')]
    by_uuid = {p['uuid']: p for p in providers}
    providers.sort(key=lambda p: -_depth(p, by_uuid))  # children first
    classes = [rc['name'] for rc in client.list_resource_classes()
               if rc['name'].startswith(custom)]
    traits = [t for t in client.list_traits() if t.startswith(custom)]
    say('found %d providers, %d resource classes, %d traits with prefix '
        '%r' % (len(providers), len(classes), len(traits), prefix))
    if args.dry_run:
        for p in providers:
            say('  provider %s (%s)' % (p['name'], p['uuid']))
        for name in classes + traits:
            say('  %s' % name)
        return 0
    _bring_cell_back(conf_path, say)
    from tempest.lib.common.utils import test_utils
    ignore_gone = test_utils.call_and_ignore_notfound_exc
    for p in providers:
        ignore_gone(client.delete_provider, p['uuid'])
    for name in classes:
        ignore_gone(client.delete_resource_class, name)
    for name in traits:
        ignore_gone(client.delete_trait, name)
    say('removed %d providers, %d resource classes, %d traits' % (
        len(providers), len(classes), len(traits)))
    return 0
