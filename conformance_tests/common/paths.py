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

"""Where the project's data files are, in a checkout and when installed.

In a checkout they sit next to the package; a wheel installs them under
<prefix>/share/conformance-tests (see data_files in setup.cfg).
"""

import os
import sys

_CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_SHARE = os.path.join(sys.prefix, 'share', 'conformance-tests')


def checkout():
    """This package's source tree when it runs from one, else None."""
    if os.path.exists(os.path.join(_CHECKOUT, 'setup.cfg')):
        return _CHECKOUT
    return None


def data_path(name):
    """Absolute path of a top-level data file or folder, e.g. 'gabbits'."""
    for root in (_CHECKOUT, _SHARE):
        candidate = os.path.join(root, name)
        if os.path.exists(candidate):
            return candidate
    raise FileNotFoundError(
        '%s not found in the checkout (%s) nor in %s: reinstall the '
        'openstack-conformance-tests package' % (name, _CHECKOUT, _SHARE))


#: Under a workspace or workdir: the temporary directory of the Tempest
#: processes the suite starts there.
TMP_DIR = 'tmp'


def tmp_env(parent, env=None):
    """``env`` (default: this process's environment) with TMPDIR set to
    ``<parent>/tmp``, made private (0700).

    Tempest and stestr leave files in the temporary directory: the load
    list of each worker (our test ids; a killed run leaves them), and
    Tempest's workspace lock (``tempest-lock``). A run that owns a
    directory keeps them there, so that /tmp holds nothing of a run once
    it is over. The path is absolute: the processes run in another
    directory (the workspace), and Python's tempfile falls back to /tmp
    when TMPDIR names no directory from there."""
    path = os.path.abspath(os.path.join(parent, TMP_DIR))
    os.makedirs(path, mode=0o700, exist_ok=True)
    return dict(os.environ if env is None else env, TMPDIR=path)
