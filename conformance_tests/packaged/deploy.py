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

"""`up` and `down` of the packaged cloud, in the order a deployer works.

up: the built root (chroot.py) -> a fresh overlay of it -> secrets ->
configuration files (configs.py) -> MariaDB and RabbitMQ -> keystone ->
the catalog, service users and member accounts (setup_in_root.py) ->
placement, glance, neutron -> nova's API database, cell0 and two cells
-> nova's API, scheduler, conductors and six computes -> blazar -> the
Zuul jobs' setup playbooks (playbooks.py) -> flavors and images ->
tempest.conf and the member accounts (tempest_files.py).

Every step says what it does; a step that fails is one line naming the
log to read, and `up` stops what it started before it returns the error
(`down` is safe to call after anything, also a killed `up`).
"""

import json
import os
import secrets as stdlib_secrets
import shutil
import subprocess
import time
import urllib.error
import urllib.request

from conformance_tests.cloud import secrets as secret_files
from conformance_tests.packaged import chroot
from conformance_tests.packaged import configs
from conformance_tests.packaged import layout
from conformance_tests.packaged import processes

DATABASES = {'keystone': ('keystone',), 'placement': ('placement',),
             'glance': ('glance',), 'neutron': ('neutron',),
             'blazar': ('blazar',),
             'nova': ('nova_api', 'nova_cell0') + tuple(
                 'nova_%s' % cell for cell in layout.CELLS)}
SECRETS = 'secrets.json'
SETUP_SCRIPT = os.path.join(os.path.dirname(__file__), 'setup_in_root.py')
#: Each step's bound: a daemon of a 2-core machine, busy with the others,
#: starts within it; beyond it, it is not coming.
READY_SECONDS = 180
# Debian's uwsgi ini files' settings that matter on loopback. uwsgi's
# plain HTTP socket closes a connection after each answer: it says so,
# or a client that keeps connections alive (keystoneauth) sends its next
# request into a closed socket and gets a reset.
UWSGI = ('uwsgi_python3', '--master', '--die-on-term', '--lazy-apps',
         '--enable-threads', '--buffer-size', '65535', '--threads', '1',
         '--add-header', 'Connection: close')
MEMBER_ACCOUNTS = 6


class PackagedCloud(object):
    def __init__(self, workdir, port_base=layout.DEFAULT_PORT_BASE,
                 say=print):
        self.statedir = os.path.abspath(os.path.join(workdir, 'packaged'))
        self.root = os.path.join(self.statedir, 'root')
        self.ports = layout.Ports(port_base)
        self.say = say
        self._secrets = None

    # -- paths ------------------------------------------------------------
    def host_path(self, inside):
        return os.path.join(self.root, inside.lstrip('/'))

    def kept_path(self, inside):
        """Where a file the cloud wrote stays after `down` (the overlay's
        upper directory): what an error message names."""
        return os.path.join(self.statedir, 'upper', inside.lstrip('/'))

    @property
    def tempest_conf(self):
        return os.path.join(self.statedir, 'tempest.conf')

    @property
    def member_conf(self):
        return os.path.join(self.statedir, 'member-tempest.conf')

    @property
    def secrets(self):
        if self._secrets is None:
            with open(os.path.join(self.statedir, SECRETS)) as f:
                self._secrets = json.load(f)
        return self._secrets

    def is_up(self):
        daemons = processes.recorded(self.statedir)
        return bool(daemons) and any(
            processes.alive(d['pid']) for d in daemons.values())

    # -- commands in the root ---------------------------------------------
    def run(self, argv, what, env=None, stdin=None):
        """Run argv in the root; its output goes to setup.log there."""
        log_inside = '/var/log/conformance/setup.log'
        log = self.host_path(log_inside)
        os.makedirs(os.path.dirname(log), exist_ok=True)
        with open(log, 'a') as out:
            out.write('\n$ %s\n' % ' '.join(argv))
            out.flush()
            done = subprocess.run(
                chroot.command(self.root, argv), stdout=out,
                stderr=subprocess.STDOUT, input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                env=dict(chroot.ROOT_ENV, **(env or {})),
                text=True if stdin is not None else None)
        if done.returncode:
            raise chroot.PackagedError('%s failed (exit %d); see %s' % (
                what, done.returncode, self.kept_path(log_inside)))

    def output(self, argv, env=None):
        return subprocess.run(
            chroot.command(self.root, argv), capture_output=True, text=True,
            env=dict(chroot.ROOT_ENV, **(env or {}))).stdout

    def start(self, name, argv, env=None):
        return processes.start(self.root, self.statedir, name, argv, env)

    # -- up ---------------------------------------------------------------
    def up(self):
        chroot.require_root()
        if self.is_up() or chroot.mounts_under(self.root):
            self.say('packaged: a cloud is up in %s: stopping it first' %
                     self.statedir)
            self.down()
        taken = [(name, port) for name, port in sorted(
            self.ports.all().items()) if processes.port_taken(port)]
        if taken:
            raise chroot.PackagedError(
                'port %d (%s) is taken on 127.0.0.1: stop what listens '
                'there or give another --port-base' % (taken[0][1],
                                                       taken[0][0]))
        started = time.monotonic()
        built = chroot.build(self.say)
        self.say('packaged: built root ready (%.0f s)' % (
            time.monotonic() - started))
        for name in ('upper', 'work'):
            shutil.rmtree(os.path.join(self.statedir, name),
                          ignore_errors=True)
        os.makedirs(self.statedir, exist_ok=True)
        chroot.mount_overlay(built, os.path.join(self.statedir, 'upper'),
                             os.path.join(self.statedir, 'work'), self.root)
        try:
            self._deploy()
        except BaseException:
            self.down()
            raise
        self.say('packaged: up in %.0f s; tempest.conf %s' % (
            time.monotonic() - started, self.tempest_conf))

    def _deploy(self):
        from conformance_tests.packaged import playbooks
        from conformance_tests.packaged import tempest_files
        self._write_secrets()
        configs.write_all(self.root, self.ports, self.secrets)
        with open(self.host_path('/etc/hosts'), 'w') as f:
            f.write('127.0.0.1 localhost\n')
        for inside in ('/var/log/conformance', '/run/mysqld',
                       '/var/lib/nova/tmp', '/var/lib/glance/images',
                       '/var/lib/neutron/lock'):
            os.makedirs(self.host_path(inside), exist_ok=True)
        self._mariadb()
        self._rabbitmq()
        self._keystone()
        self._identity()
        self._placement()
        self._glance()
        self._neutron()
        self._nova()
        self._blazar()
        playbooks.run_all(self)
        self._resources()
        tempest_files.write(self)

    def _write_secrets(self):
        def password():
            return stdlib_secrets.token_urlsafe(18)
        data = {
            'admin': {'username': 'admin', 'password': password()},
            'amqp': password(),
            'db': {service: password() for service in DATABASES},
            'services': {user: password() for user in layout.SERVICE_USERS},
            'members': [{'username': 'packaged-member-%d' % k,
                         'project_name': 'packaged-member-%d' % k,
                         'password': password()}
                        for k in range(MEMBER_ACCOUNTS)],
        }
        with secret_files.private_open(os.path.join(
                self.statedir, SECRETS)) as f:
            json.dump(data, f)
        self._secrets = data

    def _mariadb(self):
        self.say('packaged: MariaDB on port %d' % self.ports.mysql)
        if not os.path.isdir(self.host_path('/var/lib/mysql/mysql')):
            self.run(['mariadb-install-db', '--user=root',
                      '--datadir=/var/lib/mysql',
                      '--auth-root-authentication-method=socket'],
                     'mariadb-install-db')
        pid = self.start('mariadb', [
            'mariadbd', '--user=root', '--datadir=/var/lib/mysql',
            '--port=%d' % self.ports.mysql, '--bind-address=127.0.0.1',
            '--socket=/run/mysqld/mysqld.sock', '--skip-log-bin',
            '--max-connections=2000', '--innodb-flush-method=fsync',
            '--innodb-buffer-pool-size=256M',
            '--log-error=/var/log/conformance/mariadb.log'])
        processes.wait_for(
            'MariaDB', lambda: processes.port_open(self.ports.mysql),
            READY_SECONDS, pid,
            self.kept_path('/var/log/conformance/mariadb.log'))
        statements = []
        for service, names in DATABASES.items():
            password = self.secrets['db'][service]
            statements.append(
                "CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s';" % (
                    service, password))
            for name in names:
                statements.append('CREATE DATABASE %s;' % name)
                statements.append(
                    "GRANT ALL ON %s.* TO '%s'@'127.0.0.1';" % (
                        name, service))
        self.run(['mariadb', '--socket=/run/mysqld/mysqld.sock', '-uroot'],
                 'creating the databases', stdin='\n'.join(statements))

    def rabbit_env(self):
        return {'RABBITMQ_NODENAME': 'rabbit@localhost',
                'RABBITMQ_NODE_IP_ADDRESS': '127.0.0.1',
                'RABBITMQ_NODE_PORT': str(self.ports.amqp),
                'RABBITMQ_DIST_PORT': str(self.ports.rabbit_dist),
                'ERL_EPMD_PORT': str(self.ports.epmd),
                'ERL_EPMD_ADDRESS': '127.0.0.1',
                'HOME': '/var/lib/rabbitmq'}

    def _rabbitmq(self):
        self.say('packaged: RabbitMQ on port %d' % self.ports.amqp)
        env = self.rabbit_env()
        pid = self.start('rabbitmq', ['rabbitmq-server'], env)
        processes.wait_for(
            'RabbitMQ', lambda: processes.port_open(self.ports.amqp),
            READY_SECONDS, pid,
            self.kept_path('/var/log/rabbitmq/rabbit@localhost.log'))
        self.run(['rabbitmqctl', 'await_startup'], 'RabbitMQ start', env)
        self.run(['rabbitmqctl', 'add_user', 'openstack'], 'rabbitmq user',
                 env, stdin=self.secrets['amqp'] + '\n')
        for vhost in ('/',) + layout.CELLS:
            if vhost != '/':
                self.run(['rabbitmqctl', 'add_vhost', vhost],
                         'rabbitmq vhost %s' % vhost, env)
            self.run(['rabbitmqctl', 'set_permissions', '-p', vhost,
                      'openstack', '.*', '.*', '.*'],
                     'rabbitmq permissions on %s' % vhost, env)

    def _uwsgi(self, name, port, script, processes_count=1):
        argv = list(UWSGI) + [
            '--http-socket', '127.0.0.1:%d' % port, '--wsgi-file', script,
            '--processes', str(processes_count),
            '--logto', '/var/log/conformance/%s-uwsgi.log' % name]
        return self.start(name, argv)

    def wait_http(self, name, port, pid, path='/'):
        def answers():
            try:
                urllib.request.urlopen(
                    'http://127.0.0.1:%d%s' % (port, path), timeout=5)
            except urllib.error.HTTPError:
                return True
            except OSError:
                return False
            return True
        processes.wait_for(name, answers, READY_SECONDS, pid,
                           self.kept_path(processes.log_path(name)))

    def _keystone(self):
        self.say('packaged: keystone on port %d' % self.ports.keystone)
        self.run(['keystone-manage', 'db_sync'], 'keystone db_sync')
        for what in ('fernet_setup', 'credential_setup'):
            self.run(['keystone-manage', what, '--keystone-user', 'root',
                      '--keystone-group', 'root'], 'keystone ' + what)
        uri = configs.identity_uri(self.ports)
        self.run(['keystone-manage', 'bootstrap',
                  '--bootstrap-username', 'admin',
                  '--bootstrap-project-name', 'admin',
                  '--bootstrap-admin-url', uri,
                  '--bootstrap-public-url', uri,
                  '--bootstrap-internal-url', uri,
                  '--bootstrap-region-id', layout.REGION],
                 'keystone bootstrap',
                 env={'OS_BOOTSTRAP_PASSWORD':
                      self.secrets['admin']['password']})
        pid = self._uwsgi('keystone', self.ports.keystone,
                          '/usr/bin/keystone-wsgi-public', 2)
        self.wait_http('keystone', self.ports.keystone, pid, '/v3')

    def catalog(self):
        p = self.ports
        return [
            {'name': 'placement', 'type': 'placement',
             'url': p.url('placement')},
            {'name': 'nova', 'type': 'compute',
             'url': p.url('nova', '/v2.1')},
            {'name': 'glance', 'type': 'image', 'url': p.url('glance')},
            {'name': 'neutron', 'type': 'network', 'url': p.url('neutron')},
            {'name': 'blazar', 'type': 'reservation',
             'url': p.url('blazar', '/v1')},
        ]

    def in_root_script(self, phase, plan, what):
        """Run setup_in_root.py PHASE with ``plan`` on stdin (it holds
        passwords: never on a command line)."""
        inside = '/usr/local/lib/conformance/setup_in_root.py'
        os.makedirs(os.path.dirname(self.host_path(inside)), exist_ok=True)
        shutil.copy(SETUP_SCRIPT, self.host_path(inside))
        self.run(['python3', inside, phase], what,
                 stdin=json.dumps(dict(plan, **self.admin_plan())))

    def admin_plan(self):
        return {'auth_url': configs.identity_uri(self.ports),
                'region': layout.REGION,
                'admin': self.secrets['admin']}

    def _identity(self):
        self.say('packaged: service users, catalog, %d member accounts' %
                 MEMBER_ACCOUNTS)
        self.in_root_script('identity', {
            'service_users': self.secrets['services'],
            'catalog': self.catalog(),
            'members': self.secrets['members']}, 'identity setup')

    def _placement(self):
        self.say('packaged: placement on port %d' % self.ports.placement)
        self.run(['placement-manage', 'db', 'sync'], 'placement db sync')
        pid = self._uwsgi('placement', self.ports.placement,
                          '/usr/bin/placement-api')
        self.wait_http('placement', self.ports.placement, pid)

    def _glance(self):
        self.say('packaged: glance on port %d' % self.ports.glance)
        self.run(['glance-manage', 'db_sync'], 'glance db_sync')
        pid = self.start('glance', [
            'glance-api', '--config-file', '/etc/glance/glance-api.conf'])
        self.wait_http('glance', self.ports.glance, pid)

    def _neutron(self):
        self.say('packaged: neutron-server on port %d' % self.ports.neutron)
        self.run(['neutron-db-manage', '--config-file',
                  '/etc/neutron/neutron.conf', 'upgrade', 'heads'],
                 'neutron-db-manage upgrade')
        pid = self.start('neutron', [
            'neutron-server', '--config-file', '/etc/neutron/neutron.conf'])
        self.wait_http('neutron', self.ports.neutron, pid)
        # answering / is not answering a port list: see network()
        self.in_root_script('network', {}, 'neutron port list')

    def nova_argv(self, binary, conf):
        if binary == 'nova-compute':
            # nova-compute's package pulls libvirt; its entry point is
            # python3-nova's, run as the package's script would.
            return ['python3', '-c', 'import sys; sys.argv[0] = '
                    '"nova-compute"; from nova.cmd.compute import main; '
                    'main()', '--config-file', conf]
        return [binary, '--config-file', conf]

    def _nova(self):
        self.say('packaged: nova: API database, cell0, %s' % ', '.join(
            layout.CELLS))
        top = '/etc/nova/nova.conf'
        manage = ['nova-manage', '--config-file', top]
        self.run(manage + ['api_db', 'sync'], 'nova-manage api_db sync')
        self.run(manage + ['--config-file', '/etc/nova/nova-map-cell0.conf',
                           'cell_v2', 'map_cell0'], 'nova cell0 mapping')
        self.run(manage + ['db', 'sync'], 'nova-manage db sync (cell0)')
        for cell in layout.CELLS:
            cell_conf = '/etc/nova/nova-%s.conf' % cell
            # create_cell reads the cell's database and queue from the
            # config files: no password on a command line.
            self.run(manage + ['--config-file', cell_conf, 'cell_v2',
                               'create_cell', '--name', cell],
                     'nova create_cell %s' % cell)
            # the cell's file has no API database: this cell alone
            self.run(['nova-manage', '--config-file', cell_conf, 'db',
                      'sync', '--local_cell'],
                     'nova-manage db sync (%s)' % cell)
        self.say('packaged: nova API on port %d, scheduler, conductors, '
                 '%d computes' % (self.ports.nova, len(layout.COMPUTES)))
        self.start_nova_services()
        self.wait_computes()
        self.run(manage + ['cell_v2', 'discover_hosts'],
                 'nova discover_hosts')

    def nova_daemons(self):
        """{name: argv} of every nova daemon but the API."""
        daemons = {
            'nova-scheduler': self.nova_argv('nova-scheduler',
                                             '/etc/nova/nova.conf'),
            'nova-conductor': self.nova_argv('nova-conductor',
                                             '/etc/nova/nova.conf')}
        for cell in layout.CELLS:
            daemons['nova-conductor-%s' % cell] = self.nova_argv(
                'nova-conductor', '/etc/nova/nova-%s.conf' % cell)
        for host, _ in layout.COMPUTES:
            os.makedirs(self.host_path('/var/lib/nova/%s/instances' % host),
                        exist_ok=True)
            daemons['nova-compute-%s' % host] = self.nova_argv(
                'nova-compute', '/etc/nova/nova-%s.conf' % host)
        return daemons

    def start_nova_services(self):
        pid = self._uwsgi('nova-api', self.ports.nova,
                          '/usr/bin/nova-api-wsgi', 2)
        self.wait_http('nova-api', self.ports.nova, pid)
        for name, argv in self.nova_daemons().items():
            self.start(name, argv)

    def restart_nova_services(self):
        """Stop and start nova's API, scheduler and conductors (they cache
        cell mappings); the computes keep running."""
        names = ['nova-api', 'nova-scheduler', 'nova-conductor'] + [
            'nova-conductor-%s' % cell for cell in layout.CELLS]
        for name in names:
            processes.stop(self.root, self.statedir, name)
        pid = self._uwsgi('nova-api', self.ports.nova,
                          '/usr/bin/nova-api-wsgi', 2)
        self.wait_http('nova-api', self.ports.nova, pid)
        for name, argv in self.nova_daemons().items():
            if name in names:
                self.start(name, argv)

    def wait_computes(self):
        """Until every compute has a compute node record in its cell."""
        def mapped():
            # a compute is mapped once it has reported its node and
            # discover_hosts has found it
            self.output(['nova-manage', '--config-file',
                         '/etc/nova/nova.conf', 'cell_v2', 'discover_hosts',
                         '--verbose'])
            listed = self.output(['nova-manage', '--config-file',
                                  '/etc/nova/nova.conf', 'cell_v2',
                                  'list_hosts'])
            return all(' %s ' % host in listed
                       for host, _ in layout.COMPUTES)
        processes.wait_for('the nova computes', mapped, READY_SECONDS,
                           log=self.kept_path(
                               '/var/log/conformance/nova-compute-*.log'))

    def _blazar(self):
        self.say('packaged: blazar on port %d' % self.ports.blazar)
        self.run(['blazar-db-manage', '--config-file',
                  '/etc/blazar/blazar.conf', 'upgrade', 'head'],
                 'blazar-db-manage upgrade')
        pid = self.start('blazar-api', [
            'blazar-api', '--config-file', '/etc/blazar/blazar.conf'])
        self.start('blazar-manager', [
            'blazar-manager', '--config-file', '/etc/blazar/blazar.conf'])
        self.wait_http('blazar-api', self.ports.blazar, pid)

    def _resources(self):
        self.say('packaged: flavors and images')
        self.in_root_script('resources', {
            'flavors': [list(f) for f in layout.FLAVORS],
            'images': ['conformance-image', 'conformance-image-alt']},
            'flavors and images')

    # -- down -------------------------------------------------------------
    def down(self):
        """Stop every process in the root, undo every mount. Safe after
        anything; returns what could not be undone (empty when clean)."""
        problems = []
        if os.path.isdir(self.root):
            left = processes.stop_all(self.root, self.statedir)
            if left:
                problems.append('processes that would not die: %s' % (
                    ', '.join(str(p) for p in left)))
        try:
            chroot.unmount_all(self.root)
        except chroot.PackagedError as e:
            problems.append(str(e))
        return problems

    # -- status -----------------------------------------------------------
    def status(self):
        """[(daemon, pid, running, log path on this machine)]"""
        rows = []
        for name, info in sorted(processes.recorded(self.statedir).items()):
            rows.append((name, info['pid'], processes.alive(info['pid']),
                         self.host_path(info['log'])))
        return rows
