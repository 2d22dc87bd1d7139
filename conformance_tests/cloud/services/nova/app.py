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

"""Real nova 34 in one process, using the real placement over HTTP.

Nova's API, conductor, scheduler and fake-driver computes run from PyPI
code, assembled with nova's own shipped functional-test harness
(nova.test.TestCase and nova/tests/fixtures): two cells plus cell0 on
in-memory SQLite, oslo.messaging's fake transport, the fake virt driver.
Images come from the real glance over HTTP (found in the catalog). What
the harness stubs is outside the five features: neutron (NeutronFixture
ports). Everything the suite checks, the API, the scheduler's filters,
the conductor, the computes' late checks, quota counting and placement,
is upstream code.

The API is nova's real paste pipeline behind keystonemiddleware. What
nova is configured with comes from its descriptor (__init__.py),
other services' hooks included; this module only applies it.
"""

import contextlib
import functools
import importlib
import json
import logging
import os
import sys
import time

from conformance_tests.cloud import runtime
from conformance_tests.cloud import schema_cache
from conformance_tests.cloud.services.nova import cell_switch
from conformance_tests.cloud.services.nova import fake_compute
from conformance_tests.cloud.services.nova import layout
from conformance_tests.cloud.services.nova import notifications
from conformance_tests.cloud.services.nova import transport_wakeup


@functools.lru_cache(maxsize=None)
def harness_class():
    from nova import test

    class CloudHarness(test.TestCase):
        """nova's TestCase used as a harness, never as a test."""
        NUMBER_OF_CELLS = 2
        USES_DB = True
        STUB_RPC = True

        def runTest(self):  # TestCase needs a method to exist
            pass

        def setUp(self):
            with futurist_idle_wait_kept():
                super().setUp()

        def _setup_cells(self):
            # Keep the CellDatabases fixture: cell outages act on it.
            from nova.tests import fixtures as nova_fixtures
            use_fixture = self.useFixture

            def keep(fixture):
                if isinstance(fixture, nova_fixtures.CellDatabases):
                    self.cell_databases = fixture
                return use_fixture(fixture)

            self.useFixture = keep
            try:
                super()._setup_cells()
            finally:
                del self.useFixture

    return CloudHarness


@contextlib.contextmanager
def futurist_idle_wait_kept():
    """Keep how long futurist's idle pool workers sleep as futurist ships it.

    nova.test.TestCase.setUp sets ThreadWorker.MAX_IDLE_FOR to 0.01 s (a
    hack for its functional tests, so that a test's pools stop at once;
    futurist bug 2160159), where futurist ships 1 s. A nova service never
    sets it. An idle worker wakes every MAX_IDLE_FOR to check whether it
    should stop, and on this cloud every RPC server (the conductor, the
    scheduler, each compute) has a pool in one process: the idle cloud
    made about 2,200 context switches a second, and at 64 hosts, with
    some 600 workers, the wake-ups were most of nova's kernel time
    (doc/bench.md, "Scale curve"). The cloud never stops a pool before
    the process ends, so the quick stop the hack buys is of no use here.
    Which work runs, on how many workers, is unchanged.
    """
    from futurist import _thread
    shipped = _thread.ThreadWorker.MAX_IDLE_FOR
    try:
        yield
    finally:
        _thread.ThreadWorker.MAX_IDLE_FOR = shipped


def _register_password_auth_opts(conf, group):
    # keystoneauth registers a plugin's options only when it loads the
    # plugin (keystonemiddleware: when the filter is built); they must
    # exist before they can be set.
    from keystoneauth1 import loading as ks_loading
    ks_loading.register_auth_conf_options(conf, group)
    password = ks_loading.get_auth_plugin_conf_options('password')
    for opt in password:
        if opt.dest not in conf[group]:
            conf.register_opt(opt, group=group)


def _register_rpc_server_opts(conf):
    # oslo.messaging registers its RPC server options only when the first
    # server is built, after the descriptor's flags are applied; they must
    # exist before they can be set. list_opts() is its public catalogue.
    import oslo_messaging.opts
    for group, opts in oslo_messaging.opts.list_opts():
        if group is None:  # [DEFAULT]
            conf.register_opts(opts)


#: (group, option) of the descriptor's flags that are newer than the
#: oldest nova the cloud runs (cloud/releases.py): set only when this nova
#: registers them. [api] response_validation came after nova 29 (2024.1).
NEWER_OPTIONS = frozenset([('api', 'response_validation')])


def newer_options_dropped(conf, group, options):
    """``options`` without those of NEWER_OPTIONS this nova does not
    have; any other unknown option still fails loudly in flags()."""
    def known(option):
        try:
            return option in conf[group]
        except AttributeError:  # an unregistered group (NoSuchOptError)
            return False
    return {option: value for option, value in options.items()
            if (group, option) not in NEWER_OPTIONS or known(option)}


def _extra_compute(entry):
    """(host, cell, destroy seconds, {user: destroy seconds}) of an entry
    (host, cell[, destroy seconds[, by user]]) of the nova.extra_computes
    hook."""
    host, cell = entry[:2]
    return (host, cell, entry[2] if len(entry) > 2 else 0,
            entry[3] if len(entry) > 3 else {})


class _FileHandlerFlushingEachSecond(logging.FileHandler):
    """A log file written in large pieces, at most once a second.

    logging.FileHandler flushes every record. nova runs on native threads,
    and each flush is a write(2) that lets go of the GIL; the thread that
    logged then waits for it behind the busy ones (up to Python's switch
    interval, 5 ms), about 45 times a boot. Measured on the bench's boot
    step (load 0.9-1.4): p50 0.787 s with a flush per record, 0.475 s with
    this handler, 0.487 s with the lines kept in memory. FileHandler's
    close() closes the file, which writes what is buffered (the harness's
    cleanup, the process's exit), so nothing is lost on a clean stop.
    """

    BUFFER_BYTES = 256 * 1024
    FLUSH_AFTER_S = 1.0

    def __init__(self, path):
        self._flushed_at = time.monotonic()
        super().__init__(path)

    def _open(self):
        return open(self.baseFilename, self.mode, encoding=self.encoding,
                    errors=self.errors, buffering=self.BUFFER_BYTES)

    def flush(self):
        now = time.monotonic()
        if now - self._flushed_at >= self.FLUSH_AFTER_S:
            self._flushed_at = now
            super().flush()


def _log_to_file(path):
    """Send nova's log lines to the process's log file, at INFO.

    The harness's StandardLogging swaps the root logger's handlers for a
    FakeLogger, which keeps every INFO line in memory for a test to read,
    and a NullHandler that formats every DEBUG record and drops it. For a
    unit test that lasts seconds that is cheap; a cloud lives for hours,
    and its log was nowhere on disk. The lines go where every other
    service's go, and DEBUG records are no longer made. Like
    transport_wakeup, this changes the harness, never what nova does.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = _FileHandlerFlushingEachSecond(path)
    handler.setFormatter(logging.Formatter(runtime.LOG_FORMAT))
    root.addHandler(handler)
    root.setLevel(logging.INFO)


class NovaCloud(object):
    def __init__(self, proc, config, service_name):
        self.proc = proc
        self.config = config          # the descriptor's nova_config()
        self.service_name = service_name

    def prepare(self):
        """Everything before nova's services start: none of it talks to
        keystone, so it runs while the launcher registers the catalog."""
        from nova import conf as nova_conf
        from nova.tests import fixtures as nova_fixtures

        # The package re-exports its modules' contents under the same
        # names, so the module itself is reached by its full path.
        schemas = importlib.import_module(
            'nova.tests.fixtures.nova').DB_SCHEMA
        from_cache = schema_cache.load(schemas)
        self.harness = harness_class()()
        self.harness.setUp()
        if not from_cache:
            schema_cache.save(schemas)
        _log_to_file(self.proc.spec['log_file'])
        h = self.harness
        cell_switch.install(h)
        transport_wakeup.install()
        # The harness loads nova's synthetic test policy (permissive where
        # its unit tests needed it); a cloud enforces the shipped defaults.
        h.useFixture(nova_fixtures.RealPolicyFixture())
        conf = nova_conf.CONF
        from keystonemiddleware import auth_token  # noqa: F401
        for module in self.config.get('imports', ()):
            importlib.import_module(module)
        _register_rpc_server_opts(conf)
        if 'oslo_limit' in self.config['flags']:
            # nova registers them only when it first enforces a limit
            from oslo_limit import opts as limit_opts
            limit_opts.register_opts(conf)
        for group, options in self.config['flags'].items():
            options = newer_options_dropped(conf, group, options)
            if 'auth_type' in options:
                _register_password_auth_opts(conf, group)
            h.flags(group=None if group == 'DEFAULT' else group, **options)
        h.useFixture(nova_fixtures.NeutronFixture(h))
        notifications.install(conf)

        self.proc.apply_mutants(self.service_name)

    def start_services(self):
        """Nova's services, which authenticate as soon as they start."""
        h = self.harness
        h.start_service('conductor')
        h.start_service('scheduler')
        # The descriptor's layout (`cloud up --computes N` grows it), then
        # the computes other services contribute (blazar's freepool hosts,
        # with their hypervisors' destroy time; senlin's DRS host).
        for host, cell in self.config.get('computes', layout.HOSTS):
            self._start_compute(host, cell)
        for host, cell, destroy_seconds, by_user in (
                _extra_compute(c)
                for c in self.config.get('extra_computes', ())):
            compute = self._start_compute(host, cell)
            fake_compute.give_destroy_time(
                compute.manager.driver, destroy_seconds, by_user)

    def _start_compute(self, host, cell):
        # Its hypervisor hostname, where it is not the service host, and
        # its size, where it is not the fake driver's.
        with fake_compute.nodename(
                self.config.get('nodenames', {}).get(host)), \
                fake_compute.size(self.config.get('host_size')):
            return self.harness._start_compute(host, cell_name=cell)

    def api_app(self):
        from paste import deploy
        paste_ini = os.path.join(sys.prefix, 'etc', 'nova', 'api-paste.ini')
        return deploy.loadapp('config:%s' % paste_ini, name='osapi_compute')


def build(proc, service_name):
    """Return nova's API and fault-control WSGI apps, nova running."""
    with open(proc.config(service_name)) as f:
        cloud = NovaCloud(proc, json.load(f), service_name)
    # The harness, the config and the API's paste pipeline, while the
    # launcher registers the catalog in keystone (about 0.5 s of a start).
    cloud.prepare()
    api = cloud.api_app()
    proc.wait_for_catalog()
    cloud.start_services()
    from conformance_tests.cloud.services.nova import faults
    outages = faults.CellOutages(cloud.harness.cell_databases,
                                 cloud.harness.cell_mappings)
    control = faults.control_app(outages, proc.secrets['control_token'])
    return api, control
