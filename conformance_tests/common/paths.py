"""Where the project's data files are, in a checkout and when installed.

In a checkout they sit next to the package; a wheel installs them under
<prefix>/share/conformance-tests (see data_files in setup.cfg).
"""

import os
import sys

_CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_SHARE = os.path.join(sys.prefix, 'share', 'conformance-tests')


def data_path(name):
    """Absolute path of a top-level data file or folder, e.g. 'gabbits'."""
    for root in (_CHECKOUT, _SHARE):
        candidate = os.path.join(root, name)
        if os.path.exists(candidate):
            return candidate
    raise FileNotFoundError(
        '%s not found in the checkout (%s) nor in %s: reinstall the '
        'openstack-conformance-tests package' % (name, _CHECKOUT, _SHARE))
