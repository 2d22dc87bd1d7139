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

"""The service process's view of the cloud: what the launcher handed it.

The launcher writes one spec file per OS process (JSON, 0600) and starts
``python -m conformance_tests.cloud.serve SPEC``; a descriptor's
``prepare_process``/``build`` get a ProcessContext over that spec. The
launcher and the processes also share one flag file: keystone knows every
service user once it exists (services that authenticate at start wait
for it).
"""

import os
import tempfile
import time

from conformance_tests.cloud import secrets as cloud_secrets

CATALOG_READY = 'catalog-ready'
# Every service process's log lines (serve.py; nova's app.py after its
# harness has taken the root logger).
LOG_FORMAT = '%(asctime)s %(process)d %(levelname)s %(name)s %(message)s'


#: Under the service dir: each service process's own temporary directory.
TMP_DIR = 'tmp'


def private_tmp(service_dir, process):
    """``<service_dir>/tmp/<process>``, made and made the process's
    temporary directory (``tempfile`` and ``TMPDIR``, for children).

    Nova's databases are built with its own test fixtures, SQLite files
    in a temporary directory that the fixture removes at its cleanup. A
    service process ends with ``os._exit`` (serve.py), so no cleanup
    runs: in /tmp, every cloud left a few megabytes behind (1.5 GB after
    two CI runs). Here they end where the cloud ends; the process removes
    the directory when it exits, the launcher when it stops a cloud (a
    SIGKILLed process removes nothing), and the next ``up`` wipes the
    service dir."""
    path = os.path.join(service_dir, TMP_DIR, process)
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.environ['TMPDIR'] = path
    tempfile.tempdir = path
    return path


def mark_catalog_ready(service_dir):
    open(os.path.join(service_dir, CATALOG_READY), 'w').close()


class ProcessContext(object):
    def __init__(self, spec):
        self.spec = spec
        self.process = spec['process']
        self.host = spec['host']
        self.workdir = spec['workdir']
        self.region = spec['region']
        self.identity_uri = spec['identity_uri']
        self.mutant = spec.get('mutant')
        self.settings = spec.get('settings', {})

    def port(self, service, listener='api'):
        return self.spec['ports'][service][listener]

    def config(self, service):
        """What the service's descriptor returned from write_config."""
        return self.spec['configs'].get(service)

    @property
    def secrets(self):
        return cloud_secrets.load(self.workdir)

    def service_user(self, service):
        return self.secrets['services'][service]

    def apply_mutants(self, service):
        """Patch the mutant in, if it belongs to ``service``, and the
        service's spec references in the spec-reference profile; called by
        the service where its code is imported but not yet serving."""
        from conformance_tests.cloud import mutants
        if self.settings.get('spec_reference'):
            mutants.apply_references(service)
        mutants.apply(self.mutant, service)

    def wait_for_catalog(self, timeout=120):
        """Block until the launcher has registered the service users."""
        flag = os.path.join(self.workdir, CATALOG_READY)
        deadline = time.monotonic() + timeout
        while not os.path.exists(flag):
            if time.monotonic() > deadline:
                raise RuntimeError('no %s after %d s' % (flag, timeout))
            time.sleep(0.05)
