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

"""common/secret_options.py: a secret is removed, a flag or a setting
named after one is not (Tempest's own options are the cases)."""

import os

import fixtures
import testtools

from conformance_tests.common import secret_options
from conformance_tests.preflight import conf as preflight_conf

SECRETS = [
    ('admin_password', 's3cret'),
    ('admin_password', '1234'),           # a number, named for the secret
    ('image_ssh_password', 'password'),   # Tempest's default is one too
    ('fault_control_token', 't0k'),
    ('key', 'SECRET_KEY'),                # [profiler] key: an HMAC key
    ('A_Key', 'multi\nline-s3cret'),
    ('os-password', 'hyphenated'),
    ('ssh_key_type', 'ecdsa'),            # kept secret: see the module
]
NOT_SECRETS = [
    ('change_password', 'true'),          # [compute-feature-enabled]
    ('change_password', 'False'),
    ('enable_instance_password', 'True'),
    ('use_system_token', 'false'),
    ('password_lock_enabled', 'yes'),
    ('user_unique_last_password_count', '2'),
    ('user_minimum_password_age', '0'),
    ('password_expires_days', '90'),
    ('keystone', 'true'),                 # [enforce_scope]: not a 'key'
    ('admin_username', 'admin'),
    ('admin_password', ''),               # nothing set, nothing to hide
]


class IsSecretTest(testtools.TestCase):

    def test_secrets(self):
        self.assertEqual([], [case for case in SECRETS
                              if not secret_options.is_secret(*case)])

    def test_flags_and_settings_named_after_a_secret(self):
        self.assertEqual([], [case for case in NOT_SECRETS
                              if secret_options.is_secret(*case)])


class PreflightSecretsTest(testtools.TestCase):
    """What preflight masks in its messages follows the same rule."""

    def test_a_flag_is_not_masked_a_password_is(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path, 'c')
        with open(path, 'w') as f:
            f.write('[auth]\nadmin_password = s3cret-pw\n'
                    '[compute-feature-enabled]\nchange_password = true\n'
                    '[identity]\nuser_unique_last_password_count = 2\n')
        self.assertEqual(['s3cret-pw'],
                         preflight_conf.TempestConf(path).secrets())
