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

"""tools/plugin_coexistence.py with the services' own plugins installed
(test-requirements): every option of all three, in both load orders."""

import fixtures
from oslo_config import cfg
from tempest.test_discover import plugins as tempest_plugins
import testtools

from conformance_tests.services.clustering import v1 as clustering
from conformance_tests.services.reservation import v1 as reservation
from conformance_tests.tools import plugin_coexistence as coexistence

SERVICE_PLUGINS = ('blazar_tests', 'senlin-tempest-plugin')


class _ListsWhatItNeverRegisters(tempest_plugins.TempestPlugin):
    """A plugin whose registration forgets an option it lists."""

    def load_tests(self):
        return '', ''

    def register_opts(self, conf):
        conf.register_group(cfg.OptGroup('forgetful'))

    def get_opt_lists(self):
        return [('forgetful', [cfg.StrOpt('forgotten')])]


class BesideTheServicePluginsTest(testtools.TestCase):

    def test_both_orders_register_every_option(self):
        lines = coexistence.prove(coexistence.installed_plugins(),
                                  SERVICE_PLUGINS)
        self.assertEqual(2, len(lines))
        for line in lines:
            self.assertIn('3 plugins, every listed option registered',
                          line)

    def test_the_flags_are_the_service_plugins_own(self):
        from blazar_tempest_plugin import config as blazar_config
        from senlin_tempest_plugin import config as senlin_config
        self.assertIs(blazar_config.service_option[0],
                      reservation.API.flag_option())
        self.assertIs(senlin_config.service_option,
                      clustering.API.flag_option())
        self.assertEqual(('blazar', True), reservation.API.available_flag())

    def test_a_flag_of_our_own_beside_theirs_is_a_clash(self):
        # What the plugin did before it took the service plugins' flags:
        # the check must see the clash, in whichever order it arises.
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.services.reservation.v1.Reservation.'
            'service_plugin_option', None))
        e = self.assertRaises(
            coexistence.CoexistenceError, coexistence.prove,
            coexistence.installed_plugins(), SERVICE_PLUGINS)
        self.assertIn('DuplicateOptError', str(e))
        self.assertIn('blazar', str(e))

    def test_an_option_listed_but_not_registered_is_named(self):
        installed = coexistence.installed_plugins()
        e = self.assertRaises(
            coexistence.CoexistenceError, coexistence.prove,
            installed + [('forgetful', _ListsWhatItNeverRegisters())])
        self.assertIn('forgetful: [forgetful] forgotten', str(e))

    def test_a_required_plugin_missing_is_named(self):
        e = self.assertRaises(
            coexistence.CoexistenceError, coexistence.prove,
            coexistence.installed_plugins(), ['manila_tests'])
        self.assertIn('not installed here: manila_tests', str(e))

    def test_main_says_pass_or_one_line(self):
        out = self.useFixture(fixtures.StringStream('stdout'))
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', out.stream))
        err = self.useFixture(fixtures.StringStream('stderr'))
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', err.stream))
        self.assertEqual(0, coexistence.main(
            ['--require', SERVICE_PLUGINS[0]]))
        self.assertEqual(1, coexistence.main(['--require', 'nope']))
        self.assertEqual(1, len(err.getDetails()['stderr'].as_text()
                                .strip().splitlines()))
