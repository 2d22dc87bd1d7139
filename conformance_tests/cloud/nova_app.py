"""Real nova 34, in one process with the placement it uses.

Nova's API, conductor, scheduler and fake-driver computes run from PyPI
code, assembled with nova's own shipped functional-test harness
(nova.test.TestCase and nova/tests/fixtures): two cells plus cell0 on
in-memory SQLite, oslo.messaging's fake transport, the fake virt driver.
What the harness stubs is outside the five features: glance (GlanceFixture
images) and neutron (NeutronFixture ports). Everything the suite checks,
the API, the scheduler's filters, the conductor, the computes' late
checks, quota counting and placement, is upstream code.

The API is nova's real paste pipeline behind keystonemiddleware, served
on a socket; placement is served from the same process because nova's
in-process services and the suite must see one and the same placement.
"""

import functools
import os
import threading
import time

# Nova 34 can run without eventlet's monkey patching; threads are faster
# and mix with our plain WSGI servers.
os.environ.setdefault('OS_NOVA_DISABLE_EVENTLET_PATCHING', 'True')

from conformance_tests.cloud import compute_layout  # noqa: E402
from conformance_tests.cloud import secrets as cloud_secrets  # noqa: E402
from conformance_tests.cloud import wsgi_server  # noqa: E402


@functools.lru_cache(maxsize=None)
def _harness_class():
    from nova import test

    class CloudHarness(test.TestCase):
        """nova's TestCase used as a harness, never as a test."""
        NUMBER_OF_CELLS = 2
        USES_DB = True
        STUB_RPC = True

        def runTest(self):  # TestCase needs a method to exist
            pass

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


def _service_auth(identity_uri, user):
    return dict(auth_type='password', auth_url=identity_uri,
                username=user['username'], password=user['password'],
                project_name='service', user_domain_name='Default',
                project_domain_name='Default')


class NovaCloud(object):
    def __init__(self, spec):
        self.spec = spec
        secrets = cloud_secrets.load(spec['workdir'])
        self.nova_user = secrets['services']['nova']
        self.identity_uri = spec['identity_uri']

    def start(self):
        from nova import conf as nova_conf
        from nova.tests import fixtures as nova_fixtures

        self.harness = _harness_class()()
        self.harness.setUp()
        conf = nova_conf.CONF
        from keystonemiddleware import auth_token  # noqa: F401
        _register_password_auth_opts(conf, 'keystone_authtoken')
        _register_password_auth_opts(conf, 'placement')
        h = self.harness
        h.flags(compute_driver='fake.MediumFakeDriver')
        h.flags(group='keystone_authtoken', www_authenticate_uri=(
            self.identity_uri), service_token_roles_required=True,
            **_service_auth(self.identity_uri, self.nova_user))
        h.flags(group='placement', region_name=self.spec['region'],
                valid_interfaces='public',
                **_service_auth(self.identity_uri, self.nova_user))
        h.flags(group='quota', count_usage_from_placement=self.spec.get(
            'count_usage_from_placement', True))
        h.useFixture(nova_fixtures.GlanceFixture(h))
        h.useFixture(nova_fixtures.NeutronFixture(h))

        from conformance_tests.cloud import mutants
        mutants.apply(self.spec.get('mutant'), 'nova')

        h.start_service('conductor')
        h.start_service('scheduler')
        for host, cell in compute_layout.HOSTS:
            h._start_compute(host, cell_name=cell)

    def api_app(self):
        from paste import deploy
        import sys
        paste_ini = os.path.join(sys.prefix, 'etc', 'nova', 'api-paste.ini')
        return deploy.loadapp('config:%s' % paste_ini, name='osapi_compute')


def _wait_for_catalog(workdir, timeout=120):
    """Nova's services authenticate as soon as they start: wait until the
    launcher has registered their user in keystone."""
    flag = os.path.join(workdir, compute_layout.CATALOG_READY)
    deadline = time.monotonic() + timeout
    while not os.path.exists(flag):
        if time.monotonic() > deadline:
            raise RuntimeError('no %s after %d s' % (flag, timeout))
        time.sleep(0.05)


def run(spec):
    """Serve placement and nova from this process until SIGTERM."""
    # Threading mode: nova refuses to run if eventlet was imported before
    # its own patch() decided; placement's libraries would import it.
    from nova import monkey_patch
    monkey_patch.patch()
    from conformance_tests.cloud import placement_app
    placement = placement_app.build_app(spec)
    from conformance_tests.cloud import network_stub
    for app, name in ((placement, 'placement'),
                      (network_stub.app, 'network-stub')):
        threading.Thread(target=wsgi_server.serve_in_thread, daemon=True,
                         args=(app, spec['host'], spec['ports'][name])
                         ).start()
    _harness_class()  # the slow imports, while keystone starts
    _wait_for_catalog(spec['workdir'])
    cloud = NovaCloud(spec)
    cloud.start()
    from conformance_tests.cloud import nova_faults
    outages = nova_faults.CellOutages(cloud.harness.cell_databases,
                                      cloud.harness.cell_mappings)
    token = cloud_secrets.load(spec['workdir'])['control_token']
    threading.Thread(target=wsgi_server.serve_in_thread, daemon=True,
                     args=(nova_faults.control_app(outages, token),
                           spec['host'], spec['ports']['control'])).start()
    wsgi_server.serve(cloud.api_app(), spec['host'], spec['ports']['nova'])
    # SIGTERM ended the API server. nova's RPC and executor threads are not
    # daemons and would keep the process alive; all nova state is in
    # in-memory SQLite and placement's file is committed, so leave now.
    os._exit(0)
