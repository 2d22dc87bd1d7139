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
            'services': {name: {'username': name, 'password': password()}
                         for name in service_users}}
    return data


def save(workdir, data):
    path = os.path.join(workdir, FILENAME)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'w') as f:
        json.dump(data, f)


def load(workdir):
    with open(os.path.join(workdir, FILENAME)) as f:
        return json.load(f)
