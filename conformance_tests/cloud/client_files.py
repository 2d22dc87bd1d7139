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

from conformance_tests.cloud import compute_layout
from conformance_tests.cloud import secrets

WORKSPACE_REGISTRY = 'tempest-workspaces.yaml'


class WorkspaceError(Exception):
    pass


def tempest_conf(identity_uri, region, admin, placement_range, mutant,
                 log_dir, compute_range=None, count_usage_from_placement=True,
                 control=None):
    """The tempest.conf sections for the embedded cloud."""
    conf = {
        'DEFAULT': {'log_dir': log_dir, 'log_file': 'tempest.log',
                    'use_stderr': 'false'},
        'auth': {'use_dynamic_credentials': 'true',
                 'admin_username': admin['username'],
                 'admin_password': admin['password'],
                 'admin_project_name': admin['project_name'],
                 'admin_domain_name': 'Default',
                 'create_isolated_networks': 'false'},
        'identity': {'uri_v3': identity_uri, 'auth_version': 'v3',
                     'region': region},
        'identity-feature-enabled': {'api_v2': 'false'},
        'service_available': {
            'placement': 'true', 'nova': 'false', 'neutron': 'false',
            'cinder': 'false', 'glance': 'false', 'swift': 'false',
            'horizon': 'false'},
        'validation': {'run_validation': 'false'},
        'placement': {'min_microversion': placement_range[0],
                      'max_microversion': placement_range[1]},
        'conformance': {'resource_prefix': 'conformance',
                        'allow_disruption': 'true',
                        'embedded_cloud_mutant': mutant or ''},
    }
    if compute_range:
        conf['service_available']['nova'] = 'true'
        # Tempest's compute tests need a network service; the catalog's is
        # the bookkeeping stub (network_stub.py), no network is created.
        conf['service_available']['neutron'] = 'true'
        conf['auth']['create_isolated_networks'] = 'false'
        conf['compute'] = {
            'min_microversion': compute_range[0],
            'max_microversion': compute_range[1],
            'image_ref': compute_layout.IMAGE,
            'image_ref_alt': compute_layout.IMAGE_ALT,
            'flavor_ref': compute_layout.FLAVOR,
            'flavor_ref_alt': compute_layout.FLAVOR_ALT,
            'region': region,
            'build_interval': '1',
            'build_timeout': '60',
        }
        conf['conformance'].update({
            'anti_affinity_zone': compute_layout.ZONE,
            'quota_usage_from_placement': str(
                count_usage_from_placement).lower(),
            'cell_down_name': compute_layout.DOWN_CELL,
            'cell_down_zone': compute_layout.DOWN_CELL_ZONE,
        })
    if control:
        conf['conformance'].update({'fault_control_url': control[0],
                                    'fault_control_token': control[1]})
    return conf


def write_all(workdir, workspace, identity_uri, region, admin,
              placement_range, mutant=None, compute_range=None,
              count_usage_from_placement=True, control=None):
    ensure_workspace(workdir, workspace)
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_dict(tempest_conf(identity_uri, region, admin,
                                placement_range, mutant,
                                os.path.join(workspace, 'logs'),
                                compute_range, count_usage_from_placement,
                                control))
    tempest_conf_path = os.path.join(workspace, 'etc', 'tempest.conf')
    with secrets.private_open(tempest_conf_path) as f:
        conf.write(f)
    accounts = [{'username': admin['username'],
                 'project_name': admin['project_name'],
                 'domain_name': 'Default',
                 'password': admin['password'],
                 'roles': ['admin']}]
    with secrets.private_open(os.path.join(workdir, 'accounts.yaml')) as f:
        yaml.safe_dump(accounts, f, default_flow_style=False)
    clouds = {'clouds': {'conformance-admin': {
        'auth': {'auth_url': identity_uri, 'username': admin['username'],
                 'password': admin['password'],
                 'project_name': admin['project_name'],
                 'user_domain_name': 'Default',
                 'project_domain_name': 'Default'},
        'region_name': region, 'identity_api_version': 3}}}
    with secrets.private_open(os.path.join(workdir, 'clouds.yaml')) as f:
        yaml.safe_dump(clouds, f, default_flow_style=False)


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
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ['no output'])[-1]
        raise WorkspaceError('`tempest init` failed: %s' % last[-300:])
    os.makedirs(os.path.join(workspace, 'logs'), exist_ok=True)
