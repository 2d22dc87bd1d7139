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

"""Keep passwords and tokens out of everything preflight says or writes.

Preflight never puts a secret into a message on purpose; this is the
second line: every line it prints and the findings file pass through
``Redactor.text`` first, so a secret an identity service echoes back (a
validation error quoting the request) is still masked.
"""

import re

MASK = '***'
# Shorter values cannot be masked without garbling everything around
# them (and are no secret worth the name).
MIN_LENGTH = 3
# Values never masked, whatever option they came from: masking 'true'
# garbles every message. (Which options hold secrets:
# common/secret_options.py.)
_NOT_SECRET = ('true', 'false', 'yes', 'no', 'on', 'off', 'none')
# Credentials inside a URL: scheme://user:password@host
_USERINFO = re.compile(r'(?<=://)[^/@\s]+@')


class Redactor(object):

    def __init__(self):
        self._secrets = set()

    def add(self, value):
        if isinstance(value, str) and len(value) >= MIN_LENGTH and \
                value.strip().lower() not in _NOT_SECRET:
            self._secrets.add(value)

    def text(self, text):
        text = _USERINFO.sub(MASK + '@', text)
        # Longest first: a secret containing another is masked whole.
        for secret in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(secret, MASK)
        return text

    def data(self, value):
        """A JSON-like value with every string masked."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(k)): self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(v) for v in value]
        return value
