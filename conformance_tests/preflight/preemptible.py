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

"""Preflight of seed 004's hosts: each of [conformance] preemptible_hosts
is enrolled in blazar and in its freepool aggregate before the run.

The suite never enrols or gives back a host: blazar deletes a host's
child resource provider when the host is given back, and nova-compute,
which caches its provider tree, fails every build on that host until it
refreshes the cache (minutes, `[compute]
resource_provider_association_refresh`). So the operator enrols them
(playbooks/conformance-blazar-setup.yaml does on DevStack and on the
packaged cloud; the embedded cloud at its start), and a host that is
not is one line here, naming the option and the host, before any test.

Needs an admin token (nova's hypervisors and aggregates, blazar's hosts
are admin-only by default): without one the check is skipped, and the
seed's tests are not-applicable for that reason anyway.
"""

from conformance_tests.preflight import conf as conf_mod
from conformance_tests.preflight import http as http_mod
from conformance_tests.services.reservation import leases

#: nova's service host of each hypervisor is in its body from 2.53.
COMPUTE_HEADERS = {'OpenStack-API-Version': 'compute 2.53'}


def check(http, token_id, urls, conf, findings):
    """``urls``: {service type: endpoint URL} of the enabled APIs."""
    hosts = [h.strip() for h in (conf.get(
        'conformance', 'preemptible_hosts') or '').split(',') if h.strip()]
    if not hosts or 'reservation' not in urls or 'compute' not in urls:
        return
    option = '[conformance] preemptible_hosts'
    hypervisors = _get(http, urls['compute'] + '/os-hypervisors/detail',
                       token_id, 'hypervisors', option)
    try:
        computes = leases.computes(hypervisors, hosts)
    except LookupError as e:
        raise conf_mod.ConfError('%s: %s' % (option, e))
    enrolled = _get(http, urls['reservation'] + '/os-hosts', token_id,
                    'hosts', option)
    freepool = conf.get('conformance', 'blazar_freepool') or 'freepool'
    aggregates = _get(http, urls['compute'] + '/os-aggregates', token_id,
                      'aggregates', option)
    members = next((set(a.get('hosts') or []) for a in aggregates
                    if a.get('name') == freepool), None)
    if members is None:
        raise conf_mod.ConfError(
            '[conformance] blazar_freepool: nova has no aggregate named '
            '%s (blazar\'s [nova] aggregate_freepool_name)' % freepool)
    for compute in computes:
        if leases.enrolment(enrolled, compute.hypervisor_hostname) is None:
            raise conf_mod.ConfError(
                '%s: host %s (hypervisor %s) is not enrolled in blazar: '
                'enrol it before the run (`openstack reservation host '
                'create %s`, as playbooks/conformance-blazar-setup.yaml '
                'does); the suite never enrols a host' % (
                    option, compute.host, compute.hypervisor_hostname,
                    compute.hypervisor_hostname))
        if compute.host not in members:
            raise conf_mod.ConfError(
                '%s: host %s is enrolled but not in the %s aggregate: '
                'blazar did not put it in its freepool' % (
                    option, compute.host, freepool))
    findings['preemptible_hosts'] = [
        {'host': c.host, 'hypervisor': c.hypervisor_hostname,
         'enrolled': True, 'in_freepool': True} for c in computes]


def _get(http, url, token_id, key, option):
    try:
        response = http.request('GET', url, token=token_id,
                                headers=COMPUTE_HEADERS)
    except http_mod.Unreachable as e:
        raise conf_mod.ConfError('%s: cannot check the hosts: GET %s: %s' % (
            option, url, e))
    if response.status_code != 200:
        raise conf_mod.ConfError(
            '%s: cannot check the hosts: GET %s answered %d' % (
                option, url, response.status_code))
    return response.json().get(key) or []
