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

"""Preflight: is this tempest.conf's cloud fit to run the suite on?

In a few seconds, before any test: identity answers at [identity]
uri_v3; every configured account authenticates (the admin of [auth]
admin_*, and with use_dynamic_credentials = false every account of
[auth] test_accounts_file); the token's catalog has an endpoint, at the
configured interface and region, for every enabled API (the registry's,
services.all(), and the image and network services Tempest's compute
tests need); each endpoint answers with a version document; the compute
and placement microversions tempest.conf claims are within what the
cloud offers; which series the cloud looks like (series.py: nova's
maximum microversion); with an admin, that seed 004's hosts are enrolled in
blazar and in its freepool (preemptible.py).

A failure is one line naming the option to fix and the cause
(PreflightError). The findings (versions, microversion ranges, admin or
member, credential mode, endpoints) are a JSON-ready dict with no
password or token, written to <workdir>/preflight.json.

HTTP is requests, never Tempest's clients, with Tempest's deadline
([service-clients] http_timeout; preflight/http.py); tempest.conf is
read with configparser, never Tempest's CONF: preflight must explain a
conf that Tempest itself would choke on.
"""

from concurrent import futures
import json
import os
import time

from conformance_tests.preflight import conf as conf_mod
from conformance_tests.preflight import endpoints
from conformance_tests.preflight import http as http_mod
from conformance_tests.preflight import identity
from conformance_tests.preflight import preemptible
from conformance_tests.preflight import redact
from conformance_tests.preflight import series as series_mod
from conformance_tests.preflight import versions

FILENAME = 'preflight.json'
# Requests in flight at once (token requests, version documents).
PARALLEL = 8

_ONE_LINE = (conf_mod.ConfError, identity.IdentityError,
             endpoints.CatalogError, versions.MicroversionError)


class PreflightError(Exception):
    """The cloud or the conf is not fit: str() is the one line to show;
    ``findings`` what was found before (no secret)."""

    def __init__(self, message, findings):
        super().__init__(message)
        self.findings = findings


def check(conf_path):
    """The findings (a dict, no secret) for the cloud of ``conf_path``,
    or PreflightError."""
    redactor = redact.Redactor()
    started = time.monotonic()
    findings = {'tempest_conf': os.path.abspath(conf_path), 'ok': False,
                'error': None}
    try:
        _check(conf_path, findings, redactor)
        findings['ok'] = True
    except _ONE_LINE as e:
        findings['error'] = ' '.join(str(e).split())
    finally:
        findings['seconds'] = round(time.monotonic() - started, 2)
    findings = redactor.data(findings)
    if not findings['ok']:
        raise PreflightError(findings['error'], findings)
    return findings


def _check(conf_path, findings, redactor):
    conf = conf_mod.TempestConf(conf_path)
    for secret in conf.secrets():
        redactor.add(secret)
    http = http_mod.Http.from_conf(conf)

    uri_v3 = conf.get('identity', 'uri_v3')
    if not uri_v3:
        raise conf_mod.ConfError('[identity] uri_v3: not set (the suite '
                                 'authenticates with identity v3)')
    findings['identity'] = {'uri_v3': uri_v3,
                            'version': identity.reach(http, uri_v3)}

    creds, catalog_of = _credentials(conf, findings)
    for cred in creds:
        redactor.add(cred.password)
    tokens = _authenticate(http, uri_v3, creds, conf, findings, redactor)
    token = tokens[creds.index(catalog_of)]
    findings['catalog_of'] = catalog_of.label
    findings['catalog'] = endpoints.catalog_summary(token.catalog)

    wanted = _endpoints(conf, token.catalog, findings)
    _documents(http, token.id, wanted, conf, findings)
    findings['series'] = series_mod.of_findings(findings)
    admin = _admin_token(creds, tokens, conf)
    if admin is not None:
        preemptible.check(http, admin.id, {
            lookup.service_type: endpoint['url'].rstrip('/')
            for _, lookup, _, endpoint in wanted}, conf, findings)


def _admin_token(creds, tokens, conf):
    """The token of tempest.conf's admin, if it holds the admin role."""
    admin_role = conf.get('identity', 'admin_role') or conf_mod.ADMIN_ROLE
    for cred, token in zip(creds, tokens):
        if cred.is_admin_of_conf and admin_role in token.roles:
            return token
    return None


def _credentials(conf, findings):
    """The credentials to check, and whose catalog the endpoints come
    from: the admin's with dynamic credentials (Tempest makes every
    project with it), else the first pre-provisioned account's."""
    dynamic = conf.flag('auth', 'use_dynamic_credentials', True)
    admin = conf_mod.admin_credential(conf)
    accounts = []
    if dynamic:
        if admin is None:
            raise conf_mod.ConfError(
                '[auth] admin_username: not set, and use_dynamic_'
                'credentials = true needs admin credentials')
        findings['credentials'] = {
            'mode': 'dynamic',
            'about': 'Tempest creates a project and users per test class '
                     'as the admin'}
    else:
        path = conf.get('auth', 'test_accounts_file')
        if not path:
            raise conf_mod.ConfError(
                '[auth] test_accounts_file: not set, and use_dynamic_'
                'credentials = false needs pre-provisioned accounts')
        accounts = conf_mod.account_credentials(conf)
        _refuse_shared_projects(accounts, path)
        findings['credentials'] = {
            'mode': 'pre-provisioned',
            'about': '[auth] test_accounts_file %s' % path}
    creds = ([admin] if admin else []) + accounts
    return creds, (admin if dynamic else accounts[0])


def _refuse_shared_projects(accounts, path):
    """Two pre-provisioned accounts in one project make false verdicts:
    a quota test counts its project's servers while another class boots
    in the same project. One line naming the project."""
    seen = {}
    for cred in accounts:
        project = cred.project_id or cred.project_name
        if not project:
            continue
        key = (cred.project_domain, project)
        if key in seen:
            raise conf_mod.ConfError(
                '[auth] test_accounts_file %s: %s and %s share project %s: '
                'the quota tests (seed 001, seed 004) count a project\'s '
                'servers while other test classes boot in theirs, so a '
                'shared project gives false verdicts; give each account a '
                'project of its own' % (path, seen[key], cred.label,
                                        project))
        seen[key] = cred.label


def _authenticate(http, uri_v3, creds, conf, findings, redactor):
    """A token per credential, all asked at once; the first refusal in
    order is the error."""
    admin_role = conf.get('identity', 'admin_role') or conf_mod.ADMIN_ROLE
    with futures.ThreadPoolExecutor(min(PARALLEL, len(creds))) as pool:
        jobs = [pool.submit(identity.authenticate, http, uri_v3, c)
                for c in creds]
        futures.wait(jobs)
    for job in jobs:
        if job.exception() is None:
            redactor.add(job.result().id)
    found = findings['credentials']
    found.update(admin=None, accounts=[])
    tokens = []
    for cred, job in zip(creds, jobs):
        token = job.result()    # raises the first refusal, in order
        tokens.append(token)
        about = cred.describe()
        about.update(label=cred.label, roles=sorted(token.roles),
                     admin=admin_role in token.roles)
        if cred.is_admin_of_conf:
            found['admin'] = about
        else:
            found['accounts'].append(about)
    if found['mode'] == 'dynamic' and not found['admin']['admin']:
        # Tempest would fail every class making its projects (403).
        raise conf_mod.ConfError(
            '[auth] admin_username %s has no %s role (roles: %s): with a '
            'member account set use_dynamic_credentials = false and list '
            'it in a test_accounts_file' % (
                found['admin']['user'], admin_role,
                ', '.join(found['admin']['roles']) or 'none'))
    return tokens


def _endpoints(conf, catalog, findings):
    """[(api, lookup, flag text, endpoint)] of every enabled API, or the
    first CatalogError in registry order."""
    wanted = []
    findings['services'] = []
    findings['not_enabled'] = []
    types = {entry.get('type') for entry in catalog}
    for api in endpoints.apis():
        lookup = api.catalog(conf)
        on, flag_text = endpoints.enabled(conf, api)
        if not on:
            findings['not_enabled'].append({
                'type': lookup.service_type, 'flag': flag_text,
                'in_catalog': lookup.service_type in types})
            continue
        endpoint = endpoints.find(catalog, lookup, flag_text)
        wanted.append((api, lookup, flag_text, endpoint))
    return wanted


def _documents(http, token_id, wanted, conf, findings):
    """Every endpoint's version document, all asked at once; then the
    microversions tempest.conf claims against what the cloud offers."""
    with futures.ThreadPoolExecutor(max(1, min(PARALLEL,
                                               len(wanted)))) as pool:
        jobs = [pool.submit(_document, http, token_id, w) for w in wanted]
        futures.wait(jobs)
    for (api, lookup, flag_text, endpoint), job in zip(wanted, jobs):
        doc = job.result()
        offer = versions.offered(doc.entry)
        found = {
            'type': lookup.service_type,
            'enabled_by': flag_text,
            'interface': lookup.interface, 'region': lookup.region,
            'url': endpoint['url'], 'version_document': doc.url,
            'status': doc.status, 'version': doc.entry.get('id'),
            'microversions': list(offer) if offer else None}
        if api.microversions:
            group = api.config_group
            claimed = (conf.get(group, 'min_microversion'),
                       conf.get(group, 'max_microversion'))
            found['tempest_conf_microversions'] = list(claimed)
            findings['services'].append(found)
            versions.check_claims(group, claimed[0], claimed[1], offer)
        else:
            findings['services'].append(found)


def _document(http, token_id, want):
    api, lookup, flag_text, endpoint = want
    url = endpoint['url']
    start = '%s the %s endpoint %s %s' % (
        endpoints.subject(lookup, flag_text), lookup.service_type, url,
        endpoints.where(lookup))
    try:
        return versions.discover(http, url, token_id)
    except http_mod.Unreachable as e:
        raise endpoints.CatalogError('%s: %s' % (start, e))
    except versions.NoDocument as e:
        others = [u for u in e.tried if u != url]
        raise endpoints.CatalogError('%s answers %s%s' % (
            start, e.why, ', and no version document is at %s' %
            ' or '.join(others) if others else ''))


def write(findings, workdir):
    """<workdir>/preflight.json (0600), its path."""
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, FILENAME)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, 'w') as f:
        json.dump(findings, f, indent=2, sort_keys=True)
        f.write('\n')
    return path


def summary(findings):
    """A few lines for people (no secret: findings hold none)."""
    lines = []
    uri_v3 = findings['identity']['uri_v3']
    if uri_v3.rstrip('/') not in [f['url'].rstrip('/')
                                  for f in findings['services']]:
        lines.append('[identity] uri_v3 %s: identity %s' % (
            uri_v3, findings['identity']['version']))
    creds = findings['credentials']
    admin = creds['admin']
    if admin:
        lines.append('admin %s (%s): %s' % (
            admin['user'], admin['scope'], 'admin' if admin['admin'] else
            'NOT admin (roles %s)%s' % (
                ', '.join(admin['roles']) or 'none',
                ': Tempest cannot create its projects'
                if creds['mode'] == 'dynamic' else '')))
    if creds['mode'] == 'dynamic':
        lines.append('credentials: dynamic (%s)' % creds['about'])
    else:
        accounts = creds['accounts']
        admins = sum(1 for a in accounts if a['admin'])
        lines.append('credentials: pre-provisioned, %s: %d account%s '
                     'authenticated, %d admin, %d member' % (
                         creds['about'], len(accounts),
                         '' if len(accounts) == 1 else 's', admins,
                         len(accounts) - admins))
    for found in findings['services']:
        text = '%-12s %s  %s' % (found['type'], found['url'],
                                 found['version'] or '?')
        if found['microversions']:
            text += ', microversions %s-%s' % tuple(found['microversions'])
        claimed = found.get('tempest_conf_microversions')
        if claimed:
            text += ' (tempest.conf %s-%s)' % tuple(
                c or 'unset' for c in claimed)
        lines.append(text)
    for off in findings['not_enabled']:
        if off['in_catalog']:
            lines.append('%-12s in the catalog, not tested: %s' % (
                off['type'], off['flag']))
    if findings.get('series'):
        lines.append('series: %s' % series_mod.describe(findings['series']))
        lines += ['WARNING: %s' % w
                  for w in findings['series'].get('warnings', ())]
    if findings.get('preemptible_hosts'):
        lines.append('preemptible hosts %s: enrolled in blazar, in its '
                     'freepool' % ', '.join(
                         h['host'] if h['host'] == h['hypervisor'] else
                         '%s (%s)' % (h['host'], h['hypervisor'])
                         for h in findings['preemptible_hosts']))
    lines.append('ok in %.1f s' % findings['seconds'])
    return lines
