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

"""Files that let Tempest and other clients use the running embedded cloud.

They hold the cloud's admin password (needed by Tempest's dynamic
credentials), so they are written 0600 inside the workdir and their
contents are never printed.
"""

import configparser
import os
import shutil
import subprocess
import sys

import yaml

from conformance_tests.cloud import secrets
from conformance_tests.common import paths

WORKSPACE_REGISTRY = 'tempest-workspaces.yaml'


class WorkspaceError(Exception):
    pass


# Tempest services this cloud does not run unless a descriptor says so.
TEMPEST_SERVICES = ('nova', 'neutron', 'cinder', 'glance', 'swift',
                    'horizon', 'placement')
RESOURCE_PREFIX = 'conformance'


def unserved_flags():
    """Every [service_available] flag the cloud sets false unless a
    descriptor serves it: Tempest's, and the suite's APIs' own. Each is
    written, never left to its default: where a service's own Tempest
    plugin is installed its definition of the flag is the registered
    one, and its default (true) would enable tests of a service this
    cloud does not run."""
    from conformance_tests import services
    names = set(TEMPEST_SERVICES)
    for api in services.all():
        flag = api.available_flag()
        if flag:
            names.add(flag[0])
    return sorted(names)


def base_conf(log_dir):
    """What tempest.conf says whatever services run."""
    return {
        'DEFAULT': {'log_dir': log_dir, 'log_file': 'tempest.log',
                    'use_stderr': 'false',
                    # Tempest's dynamic credentials carry the prefix too,
                    # so `conformance cleanup` finds their leftovers.
                    'resource_name_prefix': RESOURCE_PREFIX},
        'auth': {'use_dynamic_credentials': 'true',
                 'create_isolated_networks': 'false'},
        'service_available': {name: 'false'
                              for name in unserved_flags()},
        'validation': {'run_validation': 'false'},
        # Tempest's @serial lock lives in lock_path; unset, it falls back
        # to one directory shared by every Tempest run on the machine, so
        # a disruptive class of one cloud would hold up all the others.
        'oslo_concurrency': {'lock_path': os.path.join(
            os.path.dirname(log_dir), 'tempest_lock')},
        'conformance': {'resource_prefix': RESOURCE_PREFIX,
                        'allow_disruption': 'true'},
    }


class ConfClash(ValueError):
    pass


def tempest_conf(ctx, descriptors, log_dir):
    """tempest.conf sections: the base, then every descriptor's fragment.

    A fragment may turn a base value around (a service is available); two
    fragments setting one option differently is a bug in a descriptor.
    """
    conf = base_conf(log_dir)
    set_by = {}
    for service in descriptors:
        for section, options in service.tempest_conf(ctx).items():
            target = conf.setdefault(section, {})
            for option, value in options.items():
                key = (section, option)
                if key in set_by and target[option] != value:
                    raise ConfClash(
                        'tempest.conf [%s] %s: %s says %r, %s says %r' % (
                            section, option, set_by[key], target[option],
                            service.name, value))
                target[option] = value
                set_by[key] = service.name
    return conf


def write_all(ctx, descriptors, workdir, workspace):
    """tempest.conf (in a Tempest workspace), accounts.yaml, clouds.yaml."""
    ensure_workspace(workdir, workspace)
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_dict(tempest_conf(ctx, descriptors,
                                os.path.join(workspace, 'logs')))
    with secrets.private_open(
            os.path.join(workspace, 'etc', 'tempest.conf')) as f:
        conf.write(f)
    accounts = [a for service in descriptors for a in service.accounts(ctx)]
    with secrets.private_open(os.path.join(workdir, 'accounts.yaml')) as f:
        yaml.safe_dump(accounts, f, default_flow_style=False)
    clouds = {}
    for service in descriptors:
        clouds.update(service.clouds(ctx))
    with secrets.private_open(os.path.join(workdir, 'clouds.yaml')) as f:
        yaml.safe_dump({'clouds': clouds}, f, default_flow_style=False)


def ensure_workspace(workdir, workspace):
    """A real Tempest workspace made by `tempest init` (once per workdir)."""
    if os.path.exists(os.path.join(workspace, '.stestr.conf')):
        os.makedirs(os.path.join(workspace, 'logs'), exist_ok=True)
        return
    shutil.rmtree(workspace, ignore_errors=True)
    tempest = os.path.join(os.path.dirname(sys.executable), 'tempest')
    done = subprocess.run(
        [tempest, 'init', '--name', 'conformance', '--workspace-path',
         os.path.join(workdir, WORKSPACE_REGISTRY), workspace],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=paths.tmp_env(workdir))
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ['no output'])[-1]
        raise WorkspaceError('`tempest init` failed: %s' % last[-300:])
    os.makedirs(os.path.join(workspace, 'logs'), exist_ok=True)
