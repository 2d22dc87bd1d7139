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

"""The admin run's tempest.conf as a vendor makes it with `conformance
config`: the cloud's admin in OS_* variables, on the command line only
what no API tells (the options discover.BY_HAND lists, with the values
the hand-written file has) and where the run keeps its logs and locks.

Then the suite's options of the two files are compared: what the
generated file found must be what the deployment's hand-written file
(tempest_files.py) says, or the run is not as expected.
"""

import os
import subprocess
import sys

from conformance_tests.configure import discover
from conformance_tests.packaged import configs
from conformance_tests.packaged import layout
from conformance_tests.preflight import conf as conf_mod

#: Where the run keeps its logs and locks: the vendor's choice, given.
PLACES = (('DEFAULT', 'log_dir'), ('DEFAULT', 'log_file'),
          ('DEFAULT', 'use_stderr'), ('DEFAULT', 'resource_name_prefix'),
          ('oslo_concurrency', 'lock_path'))
#: The options the two files must agree on: every one the suite finds,
#: and the images and flavors the suite's servers boot from.
COMPARED = tuple(
    [('compute', option) for option in ('image_ref', 'image_ref_alt',
                                        'flavor_ref', 'flavor_ref_alt')] +
    [('conformance', option) for option in (
        'anti_affinity_zone', 'anti_affinity_zone_hosts',
        'preemptible_hosts', 'senlin_drs_hypervisor')] +
    [('service_available', flag) for flag in ('nova', 'placement',
                                              'blazar', 'senlin')])
#: ListOpts compare as sets: the order of their items means nothing.
LISTS = {('conformance', 'preemptible_hosts')}


def path(cloud):
    return os.path.join(cloud.statedir, 'generated-tempest.conf')


def overrides(hand):
    """`section.option value` words from the hand-written file (a
    preflight TempestConf)."""
    words = []
    for section, option in [(s, o) for s, o, _ in discover.BY_HAND] + list(
            PLACES):
        value = hand.get(section, option)
        if value is not None:
            words += ['%s.%s' % (section, option), value]
    return words


def environment(cloud):
    admin = cloud.secrets['admin']
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env.update({
        'OS_AUTH_URL': configs.identity_uri(cloud.ports),
        'OS_USERNAME': admin['username'], 'OS_PASSWORD': admin['password'],
        'OS_PROJECT_NAME': 'admin', 'OS_USER_DOMAIN_NAME': configs.DOMAIN,
        'OS_PROJECT_DOMAIN_NAME': configs.DOMAIN,
        'OS_REGION_NAME': layout.REGION, 'OS_IDENTITY_API_VERSION': '3'})
    return env


def differences(hand, generated):
    """['[section] option: hand-written X, generated Y'] of COMPARED."""
    found = []
    for section, option in COMPARED:
        want = hand.get(section, option)
        got = generated.get(section, option)
        if (section, option) in LISTS:
            want, got = [None if v is None else sorted(
                h.strip() for h in v.split(',') if h.strip())
                for v in (want, got)]
        if section == 'service_available' and want is not None:
            want, got = want.lower(), (got or '').lower() or None
        if want != got:
            found.append('[%s] %s: hand-written %s, generated %s' % (
                section, option, want, got))
    return found


def write(cloud):
    """Run `conformance config` for the cloud; the differences of the
    suite's options from the hand-written file, or RuntimeError with its
    one-line error."""
    hand = conf_mod.TempestConf(cloud.tempest_conf)
    command = [os.path.join(os.path.dirname(sys.executable), 'conformance'),
               'config', '--out', path(cloud), '--workdir',
               os.path.join(cloud.statedir, 'config'), '--release',
               layout.RELEASE] + overrides(hand)
    done = subprocess.run(command, env=environment(cloud),
                          stdin=subprocess.DEVNULL)
    if done.returncode:
        raise RuntimeError('conformance config failed (exit %d): its error '
                           'is above' % done.returncode)
    return differences(hand, conf_mod.TempestConf(path(cloud)))
