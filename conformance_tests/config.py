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

"""The suite's own Tempest options, [conformance].

Each API declares its own options (its [service_available] flag, its
client group) in its package under services/; plugin.py registers both.
"""

from oslo_config import cfg

conformance_group = cfg.OptGroup(
    name='conformance', title='Conformance suite options')

ConformanceGroup = [
    cfg.StrOpt('resource_prefix', default='conformance',
               help='Prefix of the name of every resource the suite '
                    'creates; `conformance cleanup` removes what carries '
                    'it.'),
    cfg.BoolOpt('allow_disruption', default=False,
                help='Allow tests that disrupt the cloud (take a cell '
                     'down, start leases that evict servers, change '
                     'quotas). They only touch what they create or the '
                     'hosts configured for them.'),
    cfg.StrOpt('fault_cell_down_command', default='',
               help='Shell command that takes a cell database down; '
                    '{cell} is replaced by the cell name.'),
    cfg.StrOpt('fault_cell_up_command', default='',
               help='Shell command that brings a cell database back.'),
    cfg.StrOpt('fault_control_url', default='',
               help='Control endpoint of an embedded cloud, used for '
                    'faults when set.'),
    cfg.StrOpt('fault_control_token', default='', secret=True,
               help='Token the control endpoint wants.'),
    cfg.StrOpt('cell_down_name', default='',
               help='Cell the disruptive quota and down-cell tests take '
                    'down (and always bring back).'),
    cfg.StrOpt('cell_down_zone', default='',
               help='Availability zone whose hosts are all in '
                    'cell_down_name: the tests put servers there before the '
                    'outage.'),
    cfg.StrOpt('anti_affinity_zone', default='',
               help='Availability zone whose hosts the server-group '
                    'scheduling scenarios may fill (at most a few servers '
                    'per host). Empty: those scenarios skip.'),
    cfg.BoolOpt('quota_usage_from_placement', default=True,
                help='Whether the cloud claims [quota] '
                     'count_usage_from_placement = True (seed 001).'),
    cfg.StrOpt('openstack_cli', default='',
               help='Path of the `openstack` command (python-openstackclient) '
                    'for the real-client checks. Empty: the one installed '
                    'next to Tempest, else the one on PATH.'),
    cfg.FloatOpt('poll_interval', default=0.1, min=0.01,
                 help='Seconds between the first two polls of a waiter '
                      '(a server to settle or go away, a cell to look '
                      'down). Each later wait is 1.5 times longer, up to '
                      '[compute] build_interval, so a slow cloud is polled '
                      'no more often than Tempest polls it, and a fast one '
                      'is seen settled within a fraction of a second. '
                      'Tempest\'s build_interval alone is a whole number '
                      'of seconds.'),
    cfg.StrOpt('senlin_drs_hypervisor', default='',
               help='Hypervisor hostname (containing "drs") of a vSphere '
                    'DRS host (seed 002, needs admin); the tests expect '
                    'senlin\'s affinity policy to pick the first hypervisor '
                    'nova lists whose hostname contains drs. Empty: the '
                    'DRS tests skip.'),
    cfg.BoolOpt('senlin_heat_profiles', default=False,
                help='Whether senlin can store os.heat.stack-1.0 profiles '
                     '(it previews their template on heat): the affinity '
                     'policy\'s profile-type check needs a cluster (of no '
                     'nodes) of another type than os.nova.server.'),
    cfg.ListOpt('preemptible_hosts', default=[],
                help='Compute hosts (nova service host names) the '
                     'preemptible-instance tests (seed 004) use as blazar '
                     'freepool hosts, each enrolled in blazar by the '
                     'operator before the run (preflight checks it); the '
                     'tests reserve them in leases and never enrol or give '
                     'back a host. At least two. Empty: those tests skip.'),
    cfg.StrOpt('blazar_freepool', default='freepool',
               help='Name of blazar\'s freepool aggregate ([nova] '
                    'aggregate_freepool_name in blazar.conf).'),
    cfg.IntOpt('preemptible_graceful_shutdown_time', min=0,
               help='Seconds blazar waits between the soft shutdown of an '
                    'evicted preemptible and its deletion ([preemptible] '
                    'graceful_shutdown_time in blazar.conf, the option the '
                    'preemptible spec adds). Unset: the graceful-'
                    'termination test checks that the soft shutdown comes '
                    'first, then skips the check of the wait.'),
    cfg.ListOpt('require', default=[],
                help='What a gate must have (read by `conformance run '
                     '--tempest-conf`, added to its --require): service '
                     'names ([service_available] names such as senlin, or '
                     'API types such as clustering), admin, microversion. '
                     'A capability not applicable for want of one of them '
                     'is then reported as a failure.'),
    cfg.IntOpt('anti_affinity_zone_hosts', default=0, min=0,
               help='How many available compute hosts anti_affinity_zone '
                    'has. The scheduling scenarios fill the zone by this '
                    'count: with admin credentials they list its hosts '
                    '(GET /os-availability-zone/detail, admin only) and, '
                    'when this is set, check that it agrees; a project '
                    'member cannot list them, so a member-only run needs '
                    'it. 0: not given (member-only runs then skip those '
                    'scenarios and say to set it).'),
]
