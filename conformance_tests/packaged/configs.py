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

"""Every configuration file of the packaged cloud, as a vendor writes it.

One file per process, written into the cloud's root under /etc where the
package put its own (the paste and policy files stay as shipped): the
daemons are started with ``--config-file`` naming exactly one of these,
or find theirs where their WSGI script looks, so what a process reads is
what this module says. Each file holds a
password and is 0600 (the services run as root in the root).

Nothing here patches upstream or turns a tested rule around: the options
are the deployment's (where each service listens, its database, its
message queue, its keystone user), and the ones the seeds name are set as
a DevStack job sets them (quota counted from placement, blazar-nova's
filter and ``allow_preemptibles``).
"""

import os

from conformance_tests.cloud import secrets as secret_files
from conformance_tests.packaged import layout

DOMAIN = 'Default'
SERVICE_PROJECT = 'service'
#: Filters of nova 31's scheduler (nova 31 has no AvailabilityZoneFilter:
#: zones go through placement's pre-filter), blazar-nova's last, as the
#: DevStack jobs enable them.
SCHEDULER_FILTERS = (
    'ComputeFilter', 'ComputeCapabilitiesFilter', 'ImagePropertiesFilter',
    'ServerGroupAntiAffinityFilter', 'ServerGroupAffinityFilter',
    'SameHostFilter', 'DifferentHostFilter', 'BlazarFilter')
BLAZAR_FILTER = 'blazarnova.scheduler.filters.blazar_filter.BlazarFilter'
LOG_DIR = '/var/log/conformance'


def db_url(ports, user, password, database):
    return 'mysql+pymysql://%s:%s@127.0.0.1:%d/%s?charset=utf8' % (
        user, password, ports.mysql, database)


def amqp_url(ports, password, vhost=''):
    return 'rabbit://openstack:%s@127.0.0.1:%d/%s' % (
        password, ports.amqp, vhost)


def identity_uri(ports):
    return ports.url('keystone', '/v3')


def _auth(ports, user, password):
    return {'auth_type': 'password', 'auth_url': identity_uri(ports),
            'username': user, 'password': password,
            'project_name': SERVICE_PROJECT, 'user_domain_name': DOMAIN,
            'project_domain_name': DOMAIN}


def _authtoken(ports, user, password):
    return dict(_auth(ports, user, password),
                www_authenticate_uri=identity_uri(ports),
                service_token_roles_required=True)


def _default(name, **options):
    return dict({'debug': False,
                 'log_file': '%s/%s.log' % (LOG_DIR, name)}, **options)


def keystone(ports, secrets):
    return {'keystone.conf': {
        'DEFAULT': _default('keystone'),
        'database': {'connection': db_url(
            ports, 'keystone', secrets['db']['keystone'], 'keystone')},
        'token': {'provider': 'fernet'},
        'fernet_tokens': {'key_repository': '/etc/keystone/fernet-keys/'},
        'credential': {'key_repository': '/etc/keystone/credential-keys/'},
    }}


def placement(ports, secrets):
    return {'placement.conf': {
        'DEFAULT': _default('placement'),
        'api': {'auth_strategy': 'keystone'},
        'placement_database': {'connection': db_url(
            ports, 'placement', secrets['db']['placement'], 'placement')},
        'keystone_authtoken': _authtoken(
            ports, 'placement', secrets['services']['placement']),
    }}


def _nova_common(ports, secrets):
    password = secrets['services']['nova']
    return {
        'DEFAULT': {'debug': False, 'my_ip': '127.0.0.1',
                    'state_path': '/var/lib/nova',
                    'transport_url': amqp_url(ports, secrets['amqp']),
                    'executor_thread_pool_size': 8},
        'api': {'auth_strategy': 'keystone'},
        'keystone_authtoken': _authtoken(ports, 'nova', password),
        'placement': dict(_auth(ports, 'nova', password),
                          region_name=layout.REGION),
        'neutron': dict(_auth(ports, 'neutron', secrets['services'][
            'neutron']), region_name=layout.REGION),
        'glance': {'region_name': layout.REGION},
        'quota': {'count_usage_from_placement': True},
        'scheduler': {'discover_hosts_in_cells_interval': -1},
        'filter_scheduler': {
            'enabled_filters': ','.join(SCHEDULER_FILTERS),
            'available_filters': 'nova.scheduler.filters.all_filters',
        },
        # blazar-nova's options, read by its filter in nova's scheduler
        'blazar:physical:host': {
            'allow_preemptibles': True,
            'preemptible_aggregate': layout.FREEPOOL},
        'oslo_concurrency': {'lock_path': '/var/lib/nova/tmp'},
        'wsgi': {'api_paste_config': '/etc/nova/api-paste.ini'},
    }


def nova(ports, secrets):
    """nova.conf of the API, scheduler and super-conductor; one file per
    cell conductor; one per compute (its host, its cell's queue)."""
    common = _nova_common(ports, secrets)
    db = secrets['db']['nova']

    def with_(extra):
        merged = {group: dict(options) for group, options in common.items()}
        for group, options in extra.items():
            merged.setdefault(group, {}).update(options)
        return merged

    files = {'nova.conf': with_({
        'DEFAULT': {'log_file': '%s/nova-top.log' % LOG_DIR},
        'api_database': {'connection': db_url(ports, 'nova', db, 'nova_api')},
        'database': {'connection': db_url(ports, 'nova', db, 'nova_cell0')},
    })}
    # map_cell0 names cell0's database after [database] connection's,
    # with '_cell0' added: read through this file, no URL on a command
    # line.
    files['nova-map-cell0.conf'] = {'database': {
        'connection': db_url(ports, 'nova', db, 'nova')}}
    # The filter's class list is a MultiStrOpt in nova: two lines.
    files['nova.conf']['filter_scheduler']['available_filters'] = [
        'nova.scheduler.filters.all_filters', BLAZAR_FILTER]
    for cell in layout.CELLS:
        # A cell conductor with the API database: a compute's late check
        # of its server group's policy is an up-call through it (without
        # it, DevStack's superconductor mode turns that check off with a
        # workaround; a deployment that keeps it gives the access).
        files['nova-%s.conf' % cell] = with_({
            'DEFAULT': {'log_file': '%s/nova-conductor-%s.log' % (
                LOG_DIR, cell),
                'transport_url': amqp_url(ports, secrets['amqp'], cell)},
            'api_database': {'connection': db_url(ports, 'nova', db,
                                                  'nova_api')},
            'database': {'connection': db_url(ports, 'nova', db,
                                              'nova_%s' % cell)},
        })
    for host, cell in layout.COMPUTES:
        files['nova-%s.conf' % host] = with_({
            'DEFAULT': {'log_file': '%s/nova-compute-%s.log' % (
                LOG_DIR, host), 'host': host,
                'compute_driver': 'fake.FakeDriver',
                'state_path': '/var/lib/nova/%s' % host,
                'transport_url': amqp_url(ports, secrets['amqp'], cell)},
        })
    return files


def glance(ports, secrets):
    return {'glance-api.conf': {
        'DEFAULT': _default('glance', bind_host='127.0.0.1',
                            bind_port=ports.glance, workers=1),
        'database': {'connection': db_url(
            ports, 'glance', secrets['db']['glance'], 'glance')},
        'keystone_authtoken': _authtoken(
            ports, 'glance', secrets['services']['glance']),
        'paste_deploy': {'flavor': 'keystone'},
        'glance_store': {'stores': 'file', 'default_store': 'file',
                         'filesystem_store_datadir': '/var/lib/glance/'
                                                     'images/'},
    }}


def neutron(ports, secrets):
    """ML2 with no agent and no mechanism driver: nova makes and deletes
    ports through it; no test here needs a packet to flow."""
    return {'neutron.conf': {
        'DEFAULT': _default('neutron', bind_host='127.0.0.1',
                            bind_port=ports.neutron, core_plugin='ml2',
                            service_plugins='', auth_strategy='keystone',
                            api_workers=1, rpc_workers=0,
                            transport_url=amqp_url(ports, secrets['amqp']),
                            notify_nova_on_port_status_changes=False,
                            notify_nova_on_port_data_changes=False),
        'database': {'connection': db_url(
            ports, 'neutron', secrets['db']['neutron'], 'neutron')},
        'keystone_authtoken': _authtoken(
            ports, 'neutron', secrets['services']['neutron']),
        'ml2': {'type_drivers': 'flat', 'tenant_network_types': '',
                'mechanism_drivers': '', 'extension_drivers': ''},
        'oslo_concurrency': {'lock_path': '/var/lib/neutron/lock'},
    }}


def blazar(ports, secrets):
    password = secrets['services']['blazar']
    return {'blazar.conf': {
        'DEFAULT': _default(
            'blazar', host='127.0.0.1', port=ports.blazar,
            transport_url=amqp_url(ports, secrets['amqp']),
            os_auth_host='127.0.0.1', os_auth_port=ports.keystone,
            os_auth_prefix='', os_auth_version='v3',
            os_region_name=layout.REGION,
            os_admin_username='blazar', os_admin_password=password,
            os_admin_project_name=SERVICE_PROJECT,
            os_admin_user_domain_name=DOMAIN,
            os_admin_project_domain_name=DOMAIN),
        'database': {'connection': db_url(
            ports, 'blazar', secrets['db']['blazar'], 'blazar')},
        'manager': {'plugins': 'physical.host.plugin,virtual.instance.plugin'},
        'nova': {'aggregate_freepool_name': layout.FREEPOOL},
        'keystone_authtoken': _authtoken(ports, 'blazar', password),
        'oslo_messaging_notifications': {'driver': 'noop'},
    }}


WRITERS = (keystone, placement, nova, glance, neutron, blazar)
#: The directory of each service's files in the root.
DIRS = {'keystone.conf': 'keystone', 'placement.conf': 'placement',
        'glance-api.conf': 'glance', 'neutron.conf': 'neutron',
        'blazar.conf': 'blazar'}


def path_in_root(name):
    """Where file ``name`` lives inside the root: the packages' own file
    of that name is replaced, as a vendor's configuration does, so each
    service's WSGI script finds it where it looks by default."""
    return '/etc/%s/%s' % (DIRS.get(name, 'nova'), name)


def write_all(root, ports, secrets):
    """Every file, into ``root``; returns {name: path in the root}."""
    written = {}
    for writer in WRITERS:
        for name, sections in writer(ports, secrets).items():
            inside = path_in_root(name)
            _write(os.path.join(root, inside.lstrip('/')), sections)
            written[name] = inside
    return written


def _write(path, sections):
    lines = []
    for section, options in sections.items():
        lines.append('[%s]' % section)
        for option, value in options.items():
            values = value if isinstance(value, list) else [value]
            for one in values:
                lines.append('%s = %s' % (option, str(one)))
        lines.append('')
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with secret_files.private_open(path) as f:
        f.write('\n'.join(lines))
    return path
