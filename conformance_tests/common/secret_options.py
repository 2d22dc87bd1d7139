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

"""Which tempest.conf options hold a secret: one rule for everything that
removes or masks them (the bundle's tempest.conf, preflight's messages).

A secret word in the name (admin_password, fault_control_token,
image_ssh_key, secret) is not enough: tempest.conf also has flags and
settings named after a secret ([compute-feature-enabled]
change_password = true, password_expires_days = 90,
user_unique_last_password_count = 2), and masking them hides what a
receiver needs to read while hiding nothing. Their values say what they
are: a flag is true or false; a count or an age is a number, in an
option whose name goes on after the secret word (``..._password_count``).
A number in an option named for the secret itself (admin_password = 1234)
stays a secret, and so does any other value of a secret-named option
(ssh_key_type = ecdsa too): a name alone cannot tell a setting's word from
a secret, and a needless mask costs less than a leak.
"""

import re

SECRET_WORDS = frozenset(('password', 'passwd', 'token', 'secret', 'key'))
# oslo.config's boolean spellings: such a value is a flag, never a secret.
FLAG_VALUES = frozenset(('true', 'false', 'yes', 'no', 'on', 'off', '1',
                         '0'))
_WORD = re.compile(r'[^a-z0-9]+')
_NUMBER = re.compile(r'^-?\d+(\.\d+)?$')


def is_secret(option, value):
    """Whether tempest.conf option ``option`` = ``value`` holds a secret."""
    words = [w for w in _WORD.split(option.lower()) if w]
    value = (value or '').strip()
    if not value or not SECRET_WORDS.intersection(words):
        return False
    if value.lower() in FLAG_VALUES:
        return False
    # password_expires_days = 90: a setting about the secret.
    return words[-1] in SECRET_WORDS or not _NUMBER.match(value)
