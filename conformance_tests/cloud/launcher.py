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

"""Start, watch and stop the embedded cloud.

What each service is, which process serves it, its ports, config,
catalog entries, readiness and tempest.conf fragment come from its
descriptor (cloud/services/); this module only walks the descriptors in
start order. All services listen on 127.0.0.1 with SQLite in the cloud's
workdir. The launcher waits until each service answers, registers service
users and the catalog through keystone's API as soon as keystone answers,
lets each service do its one-time set-up, then writes the files clients
need: a Tempest workspace with tempest.conf, accounts.yaml and
clouds.yaml. With the ``front_door`` setting it first starts the front
door (front_door.py), through which clients reach every API; with the
``tls`` setting too, over HTTPS with a CA made for this start (tls.py).
"""

from concurrent import futures
import json
import os
import shutil
import signal
import socket
import threading
import time

from conformance_tests.cloud import catalog
from conformance_tests.cloud import client_files
from conformance_tests.cloud import front_door
from conformance_tests.cloud import http
from conformance_tests.cloud import launch_context
from conformance_tests.cloud import mutants
from conformance_tests.cloud import packages
from conformance_tests.cloud import runtime
from conformance_tests.cloud import secrets as cloud_secrets
from conformance_tests.cloud.service_configs import SERVICE_PROJECT
from conformance_tests.cloud import services as services_mod
from conformance_tests.cloud import tls
from conformance_tests.cloud import zygote
from conformance_tests.common import ui

REGION = services_mod.CLOUD_SETTINGS['region']  # the default's
STATE_FILE = 'state.json'
DEFAULT_PORT_BASE = 18200


class CloudError(Exception):
    """A problem the user can fix; its message is one line saying how."""


def process_names(descriptors=None):
    """The cloud's OS processes, in start order."""
    return _ordered_unique(s.process for s in (
        descriptors or services_mod.all()))


def start_zygotes(log_dir):
    """A zygote for every process of the cloud: pass it to each
    EmbeddedCloud a command starts, so that they share its imports."""
    return zygote.Zygotes(process_names(), log_dir)


def _after_ready_side_by_side(ctx, descriptors):
    """Every service's one-time set-up, each in a thread of its own.

    They touch different things (nova's zones and blazar's freepool are
    aggregates of different hosts, the images are glance's), and every
    service answers one request at a time (wsgi_server), so running them
    together only overlaps their waiting: blazar's two enrolments alone
    take over a second. An error is raised once all of them have ended.
    """
    ctx.admin_token()  # fetched here, once, not raced for by the threads
    with futures.ThreadPoolExecutor(len(descriptors)) as pool:
        steps = [pool.submit(s.after_ready, ctx) for s in descriptors]
    for service, step in zip(descriptors, steps):
        try:
            step.result()
        except OSError as e:
            # a request that timed out or found nobody listening (an
            # HTTP error answer is http.HTTPError, reported as it is)
            raise CloudError('%s set-up after it answered: %s: %s (see '
                             '%s.log and %s.out)' % (
                                 service.name, type(e).__name__, e,
                                 service.name, service.process))


class _Beside(object):
    """Steps run one after another in a daemon thread (a Ctrl-C of the
    start must not wait for them); result() waits and raises what they
    raised."""

    def __init__(self, *steps):
        self._error = None
        self._thread = threading.Thread(target=self._run, args=(
            [s for s in steps if s],), daemon=True, name='beside-start')
        self._thread.start()

    def _run(self, steps):
        try:
            for step in steps:
                step()
        except BaseException as e:  # raised again in the caller's thread
            self._error = e

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error


class EmbeddedCloud(object):
    def __init__(self, workdir, host='127.0.0.1',
                 port_base=DEFAULT_PORT_BASE, mutant=None, say=ui.say,
                 zygotes=None, serve=None, **settings):
        """``zygotes``: shared with other clouds of this command; None
        starts the cloud's own for its start. ``serve``: (catalog types,
        processes) to run only what serves them (services.serving); None
        runs every service."""
        self.workdir = os.path.abspath(workdir)
        self.zygotes = zygotes
        self.host = host
        self.mutant = mutant
        self.say = say
        every = services_mod.all()
        self.services = services_mod.serving(
            *serve, descriptors=every) if serve else every
        # profiles.settings(name), e.g. count_usage_from_placement=False;
        # a profile's setting of a service left out is still known.
        self.settings = services_mod.resolve_settings(every, settings)
        # Every service's ports, run or not: a slot's layout stays one.
        ports = services_mod.assign_ports(every, port_base)
        self.ports = {s.name: ports[s.name] for s in self.services}
        if self.settings['front_door']:
            front_door.assign_port(self.ports)
        elif self.settings['tls']:
            raise CloudError('the tls setting needs the front_door one: '
                             'only the front door speaks TLS')
        self.processes = {}
        self.tls_files = None

    @property
    def region(self):
        return self.settings['region']

    # -- paths ---------------------------------------------------------
    @property
    def service_dir(self):
        return os.path.join(self.workdir, 'services')

    @property
    def workspace(self):
        return os.path.join(self.workdir, 'workspace')

    # -- start -----------------------------------------------------------
    def preflight(self):
        if self.mutant:
            try:
                mutants.get(self.mutant)
            except LookupError as e:
                raise CloudError(str(e))
        problem = packages.check_pinned(self.services)
        if problem:
            raise CloudError(problem)
        for name, listeners in self.ports.items():
            for port in listeners.values():
                if not _port_free(self.host, port):
                    raise CloudError(
                        'port %d on %s (for %s) is in use: stop what holds '
                        'it (`conformance cloud down` if it is an earlier '
                        'cloud) or pick other ports with --port-base' % (
                            port, self.host, name))
        if _read_state(self.workdir):
            raise CloudError(
                'a cloud from %s is still recorded as running: run '
                '`conformance cloud down --workdir %s` first' % (
                    self.workdir, self.workdir))

    def up(self, while_starting=None):
        """Start the cloud; return once every service answers, its
        one-time set-up is done and the client files are written.

        ``while_starting``: called with no argument in a thread of its
        own once keystone answers and the Tempest workspace exists (the
        runner lists the tests then). From there until nova answers the
        cloud keeps one core of two busy (/proc/stat), so the workspace
        and the listing cost the start little. up() waits for it and
        raises what it raised.
        """
        started = time.monotonic()
        self.preflight()
        shutil.rmtree(self.service_dir, ignore_errors=True)
        os.makedirs(self.service_dir)
        secrets = cloud_secrets.generate(
            s.name for s in self.services if s.service_user)
        cloud_secrets.save(self.service_dir, secrets)
        if self.settings['tls']:
            self.tls_files = tls.make(
                os.path.join(self.service_dir, 'tls'), self.host)
        ctx = launch_context.LaunchContext(
            self.services, self.host, self.service_dir, self.workspace,
            self.ports, secrets, self.region, self.settings, self.say,
            ca_file=self.tls_files and self.tls_files.ca)
        self.say('starting embedded cloud in %s%s' % (
            self.workdir, ' with mutant %s' % self.mutant
            if self.mutant else ''))
        own = None
        try:
            if self.zygotes is None:
                # Importing starts now, while the configs are written.
                own = start_zygotes(os.path.join(self.workdir, 'zygotes'))
            if front_door.NAME in self.ports:
                # Up long before keystone, which registers through it.
                self._spawn_front_door()
            configs = {s.name: s.write_config(ctx) for s in self.services}
            for process in process_names(self.services):
                self._spawn(own or self.zygotes, process, ctx, configs)
            self._write_state()
            if front_door.NAME in self.ports:
                self._wait_answers(front_door.NAME, front_door.NAME, [
                    ctx.url(front_door.NAME, front_door.LISTENER) + '/'],
                    started, ca_file=ctx.ca_file)
            beside = None
            for service in self.services:
                self._wait_ready(service, started)
                if service.provides_identity:
                    self._register(ctx)
                    beside = _Beside(self._make_workspace, while_starting)
            _after_ready_side_by_side(ctx, self.services)
            if beside:
                beside.result()
            client_files.write_all(ctx, self.services, self.workdir,
                                   self.workspace)
        except (client_files.WorkspaceError, http.HTTPError,
                zygote.ZygoteError) as e:
            self.down(quiet=True)
            raise CloudError(str(e))
        except BaseException:
            self.down(quiet=True)
            raise
        finally:
            if own:
                own.close()  # what it forked runs on
        self.say('cloud ready in %.1f s: %s%s' % (
            time.monotonic() - started, ', '.join(
                '%s %s' % (s.name, ctx.url(s.name)) for s in self.services),
            '; clients use the front door, %s (region %s)' % (
                ctx.url(front_door.NAME), self.region)
            if front_door.NAME in self.ports else ''))

    def _make_workspace(self):
        client_files.ensure_workspace(self.workdir, self.workspace)

    def _spawn(self, forker, process, ctx, configs):
        spec = {'process': process, 'host': self.host,
                'ports': self.ports, 'configs': configs,
                'workdir': self.service_dir, 'mutant': self.mutant,
                'region': self.region, 'identity_uri': ctx.identity_uri,
                'settings': self.settings,
                'log_file': os.path.join(self.service_dir,
                                         '%s.log' % process)}
        spec_file = os.path.join(self.service_dir, '%s.json' % process)
        with cloud_secrets.private_open(spec_file) as f:
            json.dump(spec, f)
        self.processes[process] = forker.spawn(
            process, spec_file,
            os.path.join(self.service_dir, '%s.out' % process))

    def _spawn_front_door(self):
        spec = {'host': self.host,
                'port': self.ports[front_door.NAME][front_door.LISTENER],
                'routes': front_door.routes(self.services, self.ports),
                'log_file': os.path.join(self.service_dir,
                                         '%s.log' % front_door.NAME)}
        if self.tls_files:
            spec['tls'] = {'cert': self.tls_files.cert,
                           'key': self.tls_files.key}
        spec_file = os.path.join(self.service_dir,
                                 '%s.json' % front_door.NAME)
        with cloud_secrets.private_open(spec_file) as f:
            json.dump(spec, f)
        self.processes[front_door.NAME] = front_door.start(
            spec_file, os.path.join(self.service_dir,
                                    '%s.out' % front_door.NAME))

    def _wait_ready(self, service, started, timeout=120):
        self._wait_answers(service.name, service.process, [
            'http://%s:%d%s' % (
                self.host, self.ports[service.name][listener.name],
                listener.ready_path) for listener in service.listeners],
            started, timeout)

    def _wait_answers(self, name, process, urls, started, timeout=120,
                      ca_file=None):
        proc = self.processes[process]
        for url in urls:
            deadline = time.monotonic() + timeout
            while True:
                if proc.poll() is not None:
                    raise CloudError(
                        '%s exited while starting; see %s' % (
                            process, os.path.join(
                                self.service_dir, '%s.out' % process)))
                if _answers(url, ca_file):
                    break
                if time.monotonic() > deadline:
                    raise CloudError(
                        '%s did not answer on %s within %d s; see %s' % (
                            name, url, timeout, self.service_dir))
                time.sleep(0.1)
        self.say('%s ready (%.1f s)' % (name, time.monotonic() - started))

    def _register(self, ctx):
        """Every other service's user and catalog entries, in keystone."""
        registrar = catalog.Registrar(ctx.identity_uri, ctx.admin_token(),
                                      self.region, ctx.ca_file)
        project_id = registrar.project(SERVICE_PROJECT)
        for service in self.services:
            if service.provides_identity:
                continue  # keystone's bootstrap registered itself
            if service.service_user:
                registrar.service_user(ctx.service_user(service.name),
                                       project_id)
            for entry in service.catalog:
                registrar.service(service.name, entry.type,
                                  ctx.catalog_url(service.name, entry))
        runtime.mark_catalog_ready(self.service_dir)

    # -- state and stop ----------------------------------------------------
    def _write_state(self):
        state = {'pids': {n: p.pid for n, p in self.processes.items()},
                 'mutant': self.mutant, 'ports': self.ports}
        with open(os.path.join(self.workdir, STATE_FILE), 'w') as f:
            json.dump(state, f)

    def down(self, quiet=False):
        pids = {n: p.pid for n, p in self.processes.items()}
        if not pids:
            pids = (_read_state(self.workdir) or {}).get('pids', {})
        stopped = stop_processes(pids)
        # What a SIGKILLed service left in its temporary directory.
        shutil.rmtree(os.path.join(self.service_dir, runtime.TMP_DIR),
                      ignore_errors=True)
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
    """SIGTERM the service processes we started, SIGKILL stragglers, and
    return once each has exited.

    Exited means gone or every thread a zombie (zygote.alive): a dying
    process loses its command line before it closes its sockets, so "no
    longer looks like our service" is not yet "its ports are free". The
    processes are the zygotes' children, not ours, so os.waitpid cannot
    wait for them."""
    ours = {n: pid for n, pid in pids.items() if _is_our_service(pid)}
    for pid in ours.values():
        _signal(pid, signal.SIGTERM)
    if not _wait_exited(ours.values(), grace):
        for pid in ours.values():
            if zygote.alive(pid):
                _signal(pid, signal.SIGKILL)
        _wait_exited(ours.values(), grace)
    return sorted(ours)


def _wait_exited(pids, timeout):
    deadline = time.monotonic() + timeout
    while any(zygote.alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _signal(pid, sig):
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


def _is_our_service(pid):
    """True if pid is alive and is one of our service processes (or the
    front door)."""
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            cmdline = f.read()
    except OSError:
        return False
    return ((b'conformance_tests.cloud.serve' in cmdline or
             b'conformance_tests.cloud.front_door' in cmdline) and
            zygote.alive(pid))


def _read_state(workdir):
    try:
        with open(os.path.join(workdir, STATE_FILE)) as f:
            state = json.load(f)
    except (OSError, ValueError):
        return None
    if not any(_is_our_service(pid) for pid in state.get('pids', {}).values()):
        return None
    return state


def _answers(url, ca_file=None):
    try:
        http.request('GET', url, timeout=2, ca_file=ca_file)
    except (http.HTTPError, ValueError):
        pass  # it answered: an HTTP error is still a ready server
    except OSError:
        return False
    return True


def _port_free(host, port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True
