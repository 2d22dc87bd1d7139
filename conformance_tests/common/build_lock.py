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

"""One build at a time of a cached artefact (an older series' virtualenv,
the packaged cloud's root): two runs on one machine (two clones, a CI job
beside a developer's run) that find it missing must not build it into the
same directory at once. The second waits, then finds it built."""

import contextlib
import fcntl


@contextlib.contextmanager
def exclusive(path, what, say):
    """Hold the lock file ``path`` for the block; say so when another
    holder makes this one wait for ``what``."""
    with open(path, 'a') as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say('waiting for another build of %s (%s)' % (what, path))
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
