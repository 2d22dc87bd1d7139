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

"""Credentials of the embedded cloud, kept in one 0600 file in its workdir.

They are generated fresh for every cloud and are never printed: the files
the launcher writes for Tempest and clients hold them, logs and reports
do not.
"""

import json
import os
import secrets

FILENAME = 'secrets.json'


def generate(service_users):
    def password():
        return secrets.token_urlsafe(18)

    data = {'admin': {'username': 'admin', 'project_name': 'admin',
                      'password': password()},
            # guards the embedded cloud's fault control endpoint
            'control_token': password(),
            'services': {name: {'username': name, 'password': password()}
                         for name in service_users}}
    return data


def private_open(path):
    """Open ``path`` for writing, readable by its owner only.

    The mode given to os.open applies only when it creates the file;
    `tempest init` has already written tempest.conf with the umask, so the
    mode is set explicitly as well.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, 'w')


def save(workdir, data):
    with private_open(os.path.join(workdir, FILENAME)) as f:
        json.dump(data, f)


def load(workdir):
    with open(os.path.join(workdir, FILENAME)) as f:
        return json.load(f)
