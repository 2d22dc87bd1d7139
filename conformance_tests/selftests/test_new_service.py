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

"""A service added from one folder of its own, and nothing else.

The self-test writes a throw-away service into a temporary folder: an
embedded-cloud descriptor, an API declaration with a client, a cleanup
kind and a capability file. It then adds the folder's module to the two
registries (cloud/services/__init__.py's for the embedded cloud,
services/__init__.py's for the tested APIs), as a new service's one
registry line would, and checks that the launcher, the plugin's config
and clients, the cleanup plan and the report pick it up with no edit
anywhere else.
"""

import os
import sys
import textwrap

import fixtures
from oslo_config import cfg
import testtools

from conformance_tests.cleanup import context
from conformance_tests.cleanup import names
from conformance_tests.cleanup import plan
from conformance_tests.cloud import client_files
from conformance_tests.cloud import services as cloud_services
from conformance_tests import plugin
from conformance_tests.report import build
from conformance_tests.report import guidelines
from conformance_tests import services

MODULE = 'conformance_throwaway_widget'
TEST_ID = 'a0e1c2d3-0000-4000-8000-00000000beef'

PACKAGE = textwrap.dedent('''
    """A throw-away service: everything it is, in its own folder."""

    from oslo_config import cfg
    from tempest.lib.common import rest_client

    from conformance_tests.cleanup import kinds
    from conformance_tests.cloud.services import base
    from conformance_tests.services import api

    __all__ = ['WidgetClient']


    class WidgetClient(rest_client.RestClient):
        def list_widgets(self):
            return self.get('widgets')


    class Widget(base.Service):
        name = 'widget'
        process = 'widget'
        catalog = (base.CatalogEntry('widget', base.API, '/v1'),)
        depends_on = ('keystone',)

        def tempest_conf(self, ctx):
            return {'service_available': {'widget': 'true'}}

        def build(self, proc):
            return {base.API: lambda environ, start_response: []}


    class Widgets(kinds.Kind):
        singular, plural = 'widget', 'widgets'

        def find(self, ctx):
            return [kinds.Item(w, w, None) for w in ctx.widget_client.widgets
                    if ctx.names.made(w)]

        def remove_one(self, ctx, item):
            ctx.widget_client.widgets.remove(item.id)


    def _clients(manager, conf):
        return {'widget_client': manager.widget_client}


    class WidgetApi(api.Api):
        name = 'conformance_widget_v1'
        service_version = 'conformance-widget.v1'
        client_module = __name__
        service_option = cfg.BoolOpt('widget', default=False,
                                     help='Whether widgets are available.')
        cleanup = (api.CleanupStep(api.STAGES['owners'] + 5, Widgets(),
                                   'widget_client', _clients, 'widget'),)
        guidelines = api.beside(__file__, 'widget.yaml')


    SERVICE = Widget()
    API = WidgetApi()
''')

GUIDELINE = textwrap.dedent('''
    seed: 999_throwaway.txt
    feature: Widgets exist
    service: widget
    capabilities:
      - id: widget.exists
        rule: A widget can be listed.
        tests: [%s]
        no_mutant: a throw-away service of a self-test
''' % TEST_ID)


class NewServiceTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        folder = self.useFixture(fixtures.TempDir()).path
        package = os.path.join(folder, MODULE)
        os.mkdir(package)
        with open(os.path.join(package, '__init__.py'), 'w') as f:
            f.write(PACKAGE)
        with open(os.path.join(package, 'widget.yaml'), 'w') as f:
            f.write(GUIDELINE)
        self.useFixture(fixtures.MonkeyPatch(
            'sys.path', [folder] + sys.path))
        self.addCleanup(sys.modules.pop, MODULE, None)
        # The new service's registry lines.
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.services.REGISTERED',
            cloud_services.REGISTERED + (MODULE,)))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.services.REGISTERED',
            services.REGISTERED + (MODULE,)))

    def test_the_launcher_starts_it_and_writes_its_tempest_conf(self):
        from conformance_tests.selftests.cloud import (
            test_client_files as test_cloud_files)
        descriptors = cloud_services.all(cloud_services.REGISTERED)
        names_ = [d.name for d in descriptors]
        self.assertIn('widget', names_)
        self.assertLess(names_.index('keystone'), names_.index('widget'))
        ports = cloud_services.assign_ports(descriptors, 18900)
        self.assertIn('api', ports['widget'])
        ctx = test_cloud_files.fake_launch_context(descriptors)
        conf = client_files.tempest_conf(ctx, descriptors, '/tmp/logs')
        self.assertEqual('true', conf['service_available']['widget'])

    def test_the_plugin_registers_its_option_and_client(self):
        conf = cfg.ConfigOpts()
        plugin.ConformancePlugin().register_opts(conf)
        for group in ('identity', 'compute'):
            conf.register_opts([cfg.StrOpt('region'),
                                cfg.IntOpt('build_timeout'),
                                cfg.IntOpt('build_interval')], group)
        conf([], project='throwaway')
        self.assertFalse(conf.service_available.widget)
        # Tempest's CONF is read once per process: a stand-in keeps this
        # process's unread (test_plugin.py reads the real one in a child).
        self.useFixture(fixtures.MonkeyPatch(
            'tempest.config.service_client_config', lambda group=None: {}))
        self.useFixture(fixtures.MonkeyPatch('tempest.config.CONF', conf))
        registered = {p['name']: p for p in
                      plugin.ConformancePlugin().get_service_clients()}
        self.assertEqual(['WidgetClient'],
                         registered['conformance_widget_v1']['client_names'])
        self.assertEqual(MODULE,
                         registered['conformance_widget_v1']['module_path'])

    def test_the_cleanup_plan_removes_its_leftovers(self):
        steps = plan.order()
        kinds = [type(step.kind).__name__ for step in steps]
        self.assertIn('Widgets', kinds)
        # Its stage puts it after senlin's clusters and before servers.
        self.assertLess(kinds.index('Clusters'), kinds.index('Widgets'))
        self.assertLess(kinds.index('Widgets'), kinds.index('Servers'))

        class Manager(object):
            widget_client = type('Widgets', (), {})()
        Manager.widget_client.widgets = ['conformance-0badcafe-w1', 'other']
        ctx = context.Context(names.RunNames('conformance', ()))
        for attr, value in steps[kinds.index('Widgets')].make(
                Manager(), None).items():
            setattr(ctx, attr, value)
        lines = []
        errors = plan.run(ctx, say=lines.append, steps=[
            steps[kinds.index('Widgets')]])
        self.assertEqual([], errors)
        self.assertEqual(['other'], Manager.widget_client.widgets)
        self.assertIn('removed 1 widget', lines[-1])

    def test_the_report_judges_its_capability(self):
        caps = [c for c in guidelines.load_all() if c['id'] ==
                'widget.exists']
        self.assertEqual(1, len(caps))
        self.assertEqual([TEST_ID], caps[0]['tests'])
        passed = {TEST_ID: {'name': 'widget.test', 'status': 'pass',
                            'kind': None, 'message': '', 'requests': 0}}
        self.assertEqual('pass',
                         build.verdicts(caps, passed)[0]['status'])
        failed = {TEST_ID: dict(passed[TEST_ID], status='fail',
                                kind='assertion', message='no widget')}
        self.assertEqual('fail',
                         build.verdicts(caps, failed)[0]['status'])
