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

"""After a run, every preemptible host still builds.

    python -m conformance_tests.tools.host_probe --tempest-conf FILE

"Left as found" is more than the same objects: a run that left a host
unable to build (e.g. blazar's child provider deleted under a
nova-compute that caches it) harmed the cloud it certified. As
tempest.conf's admin, on each [conformance] preemptible_hosts host, one
preemptible server (a flavor of its own with ``blazar:preemptible``,
what blazar-nova's filter lets onto a freepool host) is booted there
(``host``, compute 2.74), must go ACTIVE on it, and is deleted; then the
flavor. Everything carries the run's name prefix, so `conformance
cleanup` finds what an interrupted probe left. Exits 0 when every host
built, 1 naming each that did not, 2 when it cannot run.
"""

import argparse
import sys
import time
import uuid

from conformance_tests.common import ui
from conformance_tests.preflight import conf as conf_mod
from conformance_tests.preflight import http as http_mod
from conformance_tests.preflight import identity

MICROVERSION = {'OpenStack-API-Version': 'compute 2.74'}
PREEMPTIBLE = 'blazar:preemptible'
POLL = 1.0


class ProbeError(Exception):
    """The probe itself cannot run: one line."""


ERRORS = (ProbeError, conf_mod.ConfError, identity.IdentityError,
          http_mod.Unreachable)


class Compute(object):
    def __init__(self, http, url, token):
        self.http, self.url, self.token = http, url.rstrip('/'), token

    def call(self, method, path, body=None):
        response = self.http.request(method, self.url + path,
                                     token=self.token, body=body,
                                     headers=MICROVERSION)
        return response.status_code, (response.json() if response.content
                                      else {})


def _compute_url(catalog, region):
    for entry in catalog:
        if entry.get('type') != 'compute':
            continue
        for endpoint in entry.get('endpoints', []):
            if endpoint.get('interface') == 'public' and (
                    not region or endpoint.get('region') == region):
                return endpoint['url']
    raise ProbeError('no public compute endpoint in the catalog%s' % (
        ' of region %s' % region if region else ''))


def connect(conf_path):
    conf = conf_mod.TempestConf(conf_path)
    admin = conf_mod.admin_credential(conf)
    if admin is None:
        raise ProbeError('%s has no [auth] admin_username: the probe '
                         'boots on named hosts, which needs admin' %
                         conf_path)
    http = http_mod.Http.from_conf(conf)
    token = identity.authenticate(http, conf.get('identity', 'uri_v3'),
                                  admin)
    url = _compute_url(token.catalog, conf.get('compute', 'region') or
                       conf.get('identity', 'region'))
    return conf, Compute(http, url, token.id)


def _wait(what, check, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done = check()
        if done is not None:
            return done
        time.sleep(POLL)
    return None


def probe_host(compute, host, flavor, image, prefix, timeout):
    """None when a preemptible server built on ``host``, else why not."""
    status, body = compute.call('POST', '/servers', {'server': {
        'name': '%s-probe-%s' % (prefix, host), 'flavorRef': flavor,
        'imageRef': image, 'networks': 'none', 'host': host}})
    if status != 202:
        return 'POST /servers for host %s answered %d: %s' % (
            host, status, str(body)[:200])
    server_id = body['server']['id']
    try:
        def settled():
            code, shown = compute.call('GET', '/servers/%s' % server_id)
            state = shown.get('server', {}).get('status')
            return shown['server'] if state in ('ACTIVE', 'ERROR') \
                else None
        server = _wait('server', settled, timeout)
        if server is None:
            return 'server %s on %s not ACTIVE within %d s' % (
                server_id, host, timeout)
        if server['status'] != 'ACTIVE' or server.get(
                'OS-EXT-SRV-ATTR:host') != host:
            return 'server %s is %s on %s: %s' % (
                server_id, server['status'],
                server.get('OS-EXT-SRV-ATTR:host'),
                server.get('fault', {}).get('message', ''))
        return None
    finally:
        compute.call('DELETE', '/servers/%s' % server_id)
        _wait('deletion', lambda: True if compute.call(
            'GET', '/servers/%s' % server_id)[0] == 404 else None, timeout)


def probe(conf_path, say=ui.say):
    """[why a host did not build] for every preemptible host."""
    conf, compute = connect(conf_path)
    hosts = [h.strip() for h in (conf.get(
        'conformance', 'preemptible_hosts') or '').split(',') if h.strip()]
    if not hosts:
        say('host probe: no [conformance] preemptible_hosts: nothing to do')
        return []
    prefix = conf.get('conformance', 'resource_prefix') or 'conformance'
    image = conf.get('compute', 'image_ref')
    timeout = int(conf.get('compute', 'build_timeout') or 300)
    status, body = compute.call('POST', '/flavors', {'flavor': {
        'name': '%s-probe-%s' % (prefix, uuid.uuid4().hex[:8]),
        'ram': 64, 'vcpus': 1, 'disk': 1}})
    if status != 200:
        raise ProbeError('POST /flavors answered %d' % status)
    flavor = body['flavor']['id']
    problems = []
    try:
        compute.call('POST', '/flavors/%s/os-extra_specs' % flavor,
                     {'extra_specs': {PREEMPTIBLE: 'true'}})
        for number, host in enumerate(hosts, 1):
            why = probe_host(compute, host, flavor, image, prefix, timeout)
            say('host probe %d of %d: %s %s' % (
                number, len(hosts), host, 'builds' if why is None else
                'DOES NOT BUILD: %s' % why))
            if why is not None:
                problems.append(why)
    finally:
        compute.call('DELETE', '/flavors/%s' % flavor)
    return problems


def check(conf_path, say=ui.say):
    """probe(), with a probe that cannot run as one problem too."""
    try:
        return probe(conf_path, say)
    except ERRORS as e:
        return ['cannot probe the preemptible hosts: %s' % e]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.host_probe',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--tempest-conf', required=True)
    args = parser.parse_args(argv)
    try:
        problems = probe(args.tempest_conf)
    except ERRORS as e:
        ui.fail('host probe: %s' % e)
        return 2
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
