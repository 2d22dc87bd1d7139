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

"""Progress lines for people watching long runs."""

import sys
import time

_START = time.monotonic()


def say(message):
    # One write per line: threads (the cloud's set-up steps) may say
    # things at once, and print() writes the newline separately.
    sys.stdout.write('[%6.1fs] %s\n' % (time.monotonic() - _START, message))
    sys.stdout.flush()


def fail(message):
    """A one-line error that says what to fix."""
    print('conformance: error: %s' % message, file=sys.stderr, flush=True)
