"""Start, watch and stop the embedded cloud.

One OS process per service (keystone and the oslo.config-based services
cannot share oslo.config's global CONF), all on 127.0.0.1, all with SQLite
in the cloud's workdir. The launcher waits until each service answers,
registers service users and the catalog through keystone's API, then writes
the files clients need: a Tempest workspace with tempest.conf,
accounts.yaml and clouds.yaml.
"""

import dataclasses
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

from conformance_tests.cloud import catalog
from conformance_tests.cloud import client_files
from conformance_tests.cloud import compute_layout
from conformance_tests.cloud import http
from conformance_tests.cloud import mutants
from conformance_tests.cloud import packages
from conformance_tests.cloud import secrets as cloud_secrets
from conformance_tests.cloud import service_configs
from conformance_tests.common import ui

REGION = 'RegionOne'
SERVICE_USERS = ('placement', 'nova')
STATE_FILE = 'state.json'


class CloudError(Exception):
    """A problem the user can fix; its message is one line saying how."""


@dataclasses.dataclass
class Service:
    name: str
    port: int
    process: str                  # the OS process that serves it
    catalog_type: str             # None: not in the catalog
    ready_path: str = '/'
    catalog_path: str = ''        # appended to the root URL in the catalog

    def url(self, host):
        return 'http://%s:%d' % (host, self.port)

    def catalog_url(self, host):
        return self.url(host) + self.catalog_path


def services(port_base):
    """The embedded cloud's services, in start-up order.

    Keystone has a process of its own (its oslo.config CONF cannot be
    shared); nova and the placement it uses share the other.
    """
    return [
        Service('keystone', port_base, 'keystone', 'identity', '/v3'),
        Service('placement', port_base + 1, 'nova', 'placement', '/'),
        Service('nova', port_base + 2, 'nova', 'compute', '/',
                catalog_path='/v2.1'),
        # Not neutron: see network_stub.py. Tempest needs the entry.
        Service('network-stub', port_base + 3, 'nova', 'network', '/'),
        # Fault control (cell outages), loopback only, token-guarded.
        Service('control', port_base + 4, 'nova', None, '/cells'),
    ]


class EmbeddedCloud(object):
    def __init__(self, workdir, host='127.0.0.1', port_base=18200,
                 mutant=None, say=ui.say, count_usage_from_placement=True):
        self.workdir = os.path.abspath(workdir)
        self.host = host
        self.mutant = mutant
        self.say = say
        self.count_usage_from_placement = count_usage_from_placement
        self.services = services(port_base)
        self.processes = {}

    # -- paths ---------------------------------------------------------
    @property
    def service_dir(self):
        return os.path.join(self.workdir, 'services')

    @property
    def workspace(self):
        return os.path.join(self.workdir, 'workspace')

    def identity_uri(self):
        return self.services[0].url(self.host) + '/v3'

    # -- start -----------------------------------------------------------
    def preflight(self):
        if self.mutant:
            try:
                mutants.get(self.mutant)
            except LookupError as e:
                raise CloudError(str(e))
        problem = packages.check_pinned(s.name for s in self.services)
        if problem:
            raise CloudError(problem)
        for service in self.services:
            if not _port_free(self.host, service.port):
                raise CloudError(
                    'port %d on %s (for %s) is in use: stop what holds it '
                    '(`conformance cloud down` if it is an earlier cloud) or '
                    'pick other ports with --port-base' % (
                        service.port, self.host, service.name))
        if _read_state(self.workdir):
            raise CloudError(
                'a cloud from %s is still recorded as running: run '
                '`conformance cloud down --workdir %s` first' % (
                    self.workdir, self.workdir))

    def up(self):
        started = time.monotonic()
        self.preflight()
        shutil.rmtree(self.service_dir, ignore_errors=True)
        os.makedirs(self.service_dir)
        secrets = cloud_secrets.generate(
            s.name for s in self.services[1:] if s.name in SERVICE_USERS)
        cloud_secrets.save(self.service_dir, secrets)
        self.say('starting embedded cloud in %s%s' % (
            self.workdir, ' with mutant %s' % self.mutant
            if self.mutant else ''))
        try:
            configs = {
                'keystone': service_configs.keystone_conf(self.service_dir),
                'placement': service_configs.placement_conf(
                    self.service_dir, self.identity_uri(),
                    secrets['services']['placement']),
            }
            for process in _ordered_unique(s.process for s in self.services):
                self._spawn(process, configs)
            self._write_state()
            keystone = self.services[0]
            self._wait_ready(keystone, started)
            token = catalog.admin_token(self.identity_uri(), secrets['admin'])
            self._register(secrets, token)
            for service in self.services[1:]:
                self._wait_ready(service, started)
            self._prepare_compute(token)
            self._write_client_files(secrets)
        except client_files.WorkspaceError as e:
            self.down(quiet=True)
            raise CloudError(str(e))
        except BaseException:
            self.down(quiet=True)
            raise
        self.say('cloud ready in %.1f s: %s' % (
            time.monotonic() - started, ', '.join(
                '%s %s' % (s.name, s.url(self.host)) for s in self.services)))

    def _spawn(self, process, configs):
        spec = {'process': process, 'host': self.host,
                'ports': {s.name: s.port for s in self.services},
                'configs': configs, 'workdir': self.service_dir,
                'mutant': self.mutant, 'region': REGION,
                'identity_uri': self.identity_uri(),
                'count_usage_from_placement': self.count_usage_from_placement,
                'log_file': os.path.join(self.service_dir,
                                         '%s.log' % process)}
        spec_file = os.path.join(self.service_dir, '%s.json' % process)
        with open(spec_file, 'w') as f:
            json.dump(spec, f)
        out = open(os.path.join(self.service_dir, '%s.out' % process), 'wb')
        env = dict(os.environ, PYTHONUNBUFFERED='1')
        self.processes[process] = subprocess.Popen(
            [sys.executable, '-m', 'conformance_tests.cloud.serve',
             spec_file],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=env, start_new_session=True)

    def _wait_ready(self, service, started, timeout=120):
        url = service.url(self.host) + service.ready_path
        deadline = time.monotonic() + timeout
        proc = self.processes[service.process]
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise CloudError(
                    '%s exited with code %s while starting; see %s' % (
                        service.process, proc.returncode, os.path.join(
                            self.service_dir, '%s.out' % service.process)))
            try:
                http.request('GET', url, timeout=2)
            except http.HTTPError:
                pass  # it answered: an HTTP error is still a ready server
            except OSError:
                time.sleep(0.1)
                continue
            self.say('%s ready (%.1f s)' % (
                service.name, time.monotonic() - started))
            return
        raise CloudError('%s did not answer on %s within %d s; see %s' % (
            service.name, url, timeout, self.service_dir))

    def _register(self, secrets, token):
        registrar = catalog.Registrar(self.identity_uri(), token, REGION)
        project_id = registrar.project('service')
        for service in self.services[1:]:
            if service.name in secrets['services']:
                registrar.service_user(secrets['services'][service.name],
                                       project_id)
            if service.catalog_type:
                registrar.service(service.name, service.catalog_type,
                                  service.catalog_url(self.host))
        open(os.path.join(self.service_dir,
                          compute_layout.CATALOG_READY), 'w').close()

    def _prepare_compute(self, token):
        """What an operator does once: the zones' aggregates."""
        nova = self._service('nova').catalog_url(self.host)
        headers = {'OpenStack-API-Version': 'compute 2.64'}
        for zone, hosts in compute_layout.ZONES.items():
            _, _, body = http.request('POST', nova + '/os-aggregates', {
                'aggregate': {'name': zone, 'availability_zone': zone}},
                token=token, headers=headers)
            for host in hosts:
                http.request(
                    'POST', nova + '/os-aggregates/%s/action' % (
                        body['aggregate']['id']),
                    {'add_host': {'host': host}}, token=token,
                    headers=headers)
            self.say('zone %s: %s' % (zone, ', '.join(hosts)))

    def _service(self, name):
        return next(s for s in self.services if s.name == name)

    def _write_client_files(self, secrets):
        _, _, root = http.request(
            'GET', self._service('placement').url(self.host) + '/')
        placement = root['versions'][0]
        _, _, root = http.request(
            'GET', self._service('nova').url(self.host) + '/')
        compute = next(v for v in root['versions'] if v['id'] == 'v2.1')
        client_files.write_all(
            self.workdir, self.workspace, identity_uri=self.identity_uri(),
            region=REGION, admin=secrets['admin'],
            placement_range=(placement['min_version'],
                             placement['max_version']),
            compute_range=(compute['min_version'], compute['version']),
            mutant=self.mutant,
            count_usage_from_placement=self.count_usage_from_placement,
            control=(self._service('control').url(self.host),
                     secrets['control_token']))

    # -- state and stop ----------------------------------------------------
    def _write_state(self):
        state = {'pids': {n: p.pid for n, p in self.processes.items()},
                 'mutant': self.mutant,
                 'ports': {s.name: s.port for s in self.services}}
        with open(os.path.join(self.workdir, STATE_FILE), 'w') as f:
            json.dump(state, f)

    def down(self, quiet=False):
        pids = {n: p.pid for n, p in self.processes.items()}
        if not pids:
            pids = (_read_state(self.workdir) or {}).get('pids', {})
        stopped = stop_processes(pids)
        state = os.path.join(self.workdir, STATE_FILE)
        if os.path.exists(state):
            os.remove(state)
        self.processes = {}
        if not quiet:
            self.say('cloud stopped (%s)' % (', '.join(stopped) or
                                             'nothing was running'))

    def wait(self):
        """Block until Ctrl-C or a service dies, then stop the cloud."""
        try:
            while all(p.poll() is None for p in self.processes.values()):
                time.sleep(0.5)
            dead = [n for n, p in self.processes.items()
                    if p.poll() is not None]
            self.say('service(s) exited: %s; stopping the cloud' %
                     ', '.join(dead))
        except KeyboardInterrupt:
            self.say('Ctrl-C: stopping the cloud')
        finally:
            self.down()


def _ordered_unique(items):
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def stop_processes(pids, grace=10):
    """SIGTERM the service processes we started, SIGKILL stragglers."""
    alive = {n: pid for n, pid in pids.items() if _is_our_service(pid)}
    for pid in alive.values():
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(
            _is_our_service(pid) for pid in alive.values()):
        time.sleep(0.1)
    for pid in alive.values():
        if _is_our_service(pid):
            _signal(pid, signal.SIGKILL)
    for pid in alive.values():
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    return sorted(alive)


def _signal(pid, sig):
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


def _is_our_service(pid):
    """True if pid is alive and is one of our service processes."""
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            cmdline = f.read()
        with open('/proc/%d/stat' % pid) as f:
            if f.read().rsplit(')', 1)[1].split()[0] == 'Z':
                return False
    except OSError:
        return False
    return b'conformance_tests.cloud.serve' in cmdline


def _read_state(workdir):
    try:
        with open(os.path.join(workdir, STATE_FILE)) as f:
            state = json.load(f)
    except (OSError, ValueError):
        return None
    if not any(_is_our_service(pid) for pid in state.get('pids', {}).values()):
        return None
    return state


def _port_free(host, port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True
