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

"""The Tempest workspace of a run against a vendor's tempest.conf:
``<workdir>/vendor-workspace``, holding a private copy of that file."""

import configparser
import os
import shutil

from conformance_tests.cloud import client_files
from conformance_tests.cloud import secrets

NAME = 'vendor-workspace'


class TempestConfError(Exception):
    """The file cannot be used: one line naming it and what to fix."""


def check_tempest_conf(path):
    """Refuse, in one line, a file that cannot be a tempest.conf."""
    if not os.path.isfile(path):
        raise TempestConfError('--tempest-conf %s: no such file' % path)
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(path)
    except (configparser.Error, UnicodeDecodeError) as e:
        raise TempestConfError('--tempest-conf %s is not a tempest.conf '
                               '(INI) file: %s' % (
                                   path, str(e).splitlines()[0]))
    if not parser.has_section('identity') and not parser.has_section('auth'):
        raise TempestConfError('--tempest-conf %s is not a tempest.conf: it '
                               'has no [identity] or [auth] section' % path)


def make(workdir, tempest_conf):
    """The workspace, with ``tempest_conf`` (checked first with
    check_tempest_conf) copied into it (0600)."""
    workspace = os.path.join(workdir, NAME)
    try:
        client_files.ensure_workspace(workdir, workspace)
    except client_files.WorkspaceError as e:
        raise TempestConfError(str(e))
    # It holds the cloud's passwords: the copy is the owner's alone.
    with open(tempest_conf) as src, secrets.private_open(os.path.join(
            workspace, 'etc', 'tempest.conf')) as dst:
        shutil.copyfileobj(src, dst)
    return workspace
