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

"""Run gabbi YAML files as Tempest tests: one test method per file.

The generated method gets the file's idempotent id (so --list-tests,
--load-list and stestr parallelism work per file), skips from config when
the cloud's configured microversion range cannot serve the file, builds
the file's topology with cleanups registered, runs every request with the
token and endpoint from Tempest's auth provider, and fails with the spec
rule and each failing request when a request gets an answer the file does
not accept (an AssertionError: the cloud broke the rule). When requests
only errored (no answer judged: connection refused, a timeout) it raises
GabbiRequestError instead, so that no verdict engine takes it for a
broken rule.

What a file may hold is checked when it is loaded (gabbi_files), so a check
that cannot fail never reaches a cloud:

- no ``xfail`` and no ``skip`` on any request (they can never fail the
  file);
- a provider-set key takes a non-empty list of names, or ``none`` (the
  answer has its list and none of the topology's providers in it), never
  ``[]``;
- a request asserts more than its status (a ``response_*`` key), unless
  the spec fixes that status and ``desc:`` quotes it:
  ``desc: "spec 003: ... would result in HTTP 400 Bad Request error"``;
  a DELETE whose effect the next request checks on the same URL may say
  ``desc: "step: <why>"`` instead.

Error text is matched only where the spec quotes it (with a YAML comment
naming the spec line); elsewhere a request asserts the status and the
field the error names, so that a release wording an error differently
still gets a true verdict.

Per-run values reach the requests as ``$RUN['NAME']`` (written into the
test data before gabbi reads it) and the topology's provider names reach
the handlers through their constructor: nothing goes through
``os.environ`` or module globals, which every test of a worker shares.
"""

import os
import unittest
import urllib.parse
import uuid

from gabbi import handlers
from gabbi import suitemaker
from tempest.lib import decorators
from testtools import content

from conformance_tests.common import gabbi_files
from conformance_tests.common import gabbi_handlers
from conformance_tests.common import gabbi_http
from conformance_tests.common import microversion
from conformance_tests.common import tls
from conformance_tests.common import topology


class GabbiFileRunner(object):
    """Mixin for a Tempest test class whose tests are gabbi files.

    The class sets ``gabbi_service`` (folder under gabbits/ and the
    tempest.conf group of its microversion range) and implements
    ``gabbi_endpoint()``, ``gabbi_token()``, ``gabbi_caller()`` (the
    project and user ids of that token: caller_of), ``resource_prefix()``,
    ``conf_for_gabbi()``, and, as its files need them,
    ``topology_client()`` and ``cleanup_prefixed(prefix)``.
    """
    gabbi_service = None

    def cleanup_prefixed(self, prefix):
        """Remove what the file created under ``prefix`` (default: none)."""

    def run_gabbi_file(self, path):
        data = gabbi_files.load(path)
        meta = data.pop('meta')
        self._skip_outside_range(meta)
        names = {}
        # Everything a file creates is named with this prefix, so the
        # class's cleanup can find it even when the file stops half-way.
        prefix = '%s-%s' % (self.resource_prefix(), uuid.uuid4().hex[:8])
        self.addCleanup(self.cleanup_prefixed, prefix)
        values = {gabbi_files.PREFIX: prefix}
        values.update(zip(gabbi_files.CALLER, self.gabbi_caller()))
        if meta.get('topology'):
            spec = gabbi_files.topologies(self.gabbi_service)[
                meta['topology']]
            client = _RequestCounter(self.topology_client())
            # Registered before the topology, so it runs after every
            # removal the topology registers.
            self.addCleanup(lambda: self.addDetail(
                'topology-requests', content.text_content(str(client.sent))))
            topo = topology.build(
                client, spec, self.resource_prefix(), self.addCleanup)
            values.update(topo.values)
            names = topo.provider_names
        self._run_suite(path, gabbi_files.with_run_values(data, values),
                        meta, names)

    def _skip_outside_range(self, meta):
        group = getattr(self.conf_for_gabbi(), self.gabbi_service)
        reason = microversion.skip_reason(
            self.gabbi_service, str(meta['min_microversion']),
            str(meta.get('max_microversion') or meta['min_microversion']),
            group.min_microversion, group.max_microversion)
        if reason:
            self.skipTest(reason)

    def _run_suite(self, path, data, meta, names):
        url = urllib.parse.urlsplit(self.gabbi_endpoint())
        defaults = data.setdefault('defaults', {})
        headers = defaults.setdefault('request_headers', {})
        headers['x-auth-token'] = self.gabbi_token()
        if url.scheme == 'https':
            defaults['ssl'] = True
        conf = self.conf_for_gabbi()
        ca_file, verify = tls.options(conf)
        # Tempest's deadline for each request, not gabbi's own 30 s.
        timeout = conf.service_clients.http_timeout
        gabbi_http.defaults(defaults, verify, timeout)
        port = url.port or (443 if url.scheme == 'https' else 80)

        suite = suitemaker.test_suite_from_dict(
            unittest.defaultTestLoader,
            os.path.splitext(os.path.basename(path))[0], data,
            os.path.dirname(path), url.hostname, port, None, None,
            prefix=url.path.rstrip('/'),
            handlers=_handlers_for_run(names),
            test_loader_name='conformance')
        # gabbi trusts certifi's bundle only: give its clients Tempest's
        # (and gabbi 2.x's its deadline).
        gabbi_http.prepare(suite, ca_file, verify, timeout)
        result = unittest.TestResult()
        suite.run(result)

        requests = result.testsRun - len(result.skipped)
        self.addDetail('gabbi-requests', content.text_content(str(requests)))
        if result.failures:
            # A request got an answer the file does not accept: the
            # cloud broke the rule. Errors are listed too (often a
            # consequence, e.g. a later request needing what failed).
            self.fail(_failure_message(path, meta, result.failures,
                                       result.errors, requests))
        if result.errors:
            # Only errors (connection refused, a timeout, a bad file): no
            # answer was judged, so this must not read as a broken rule.
            raise GabbiRequestError(_failure_message(
                path, meta, [], result.errors, requests))
        if requests == 0:
            self.fail('%s ran no request' % os.path.basename(path))


def caller_of(client):
    """(project id, user id) of the token ``client`` sends, from the
    token Tempest's auth provider was given by keystone."""
    _, body = client.auth_provider.auth_data
    return body['project']['id'], body['user']['id']


class _RequestCounter(object):
    """A topology client that counts the requests it sends (set-up and
    removal; each of TopologyClient's methods sends one): the bench
    weighs them beside the file's own requests."""

    def __init__(self, client):
        self._client = client
        self.sent = 0

    def __getattr__(self, name):
        method = getattr(self._client, name)

        def counted(*args, **kwargs):
            self.sent += 1
            return method(*args, **kwargs)
        return counted


def _handlers_for_run(provider_names):
    """gabbi's own handlers plus ours, fresh for one file run."""
    return ([h() for h in handlers.RESPONSE_HANDLERS] +
            gabbi_handlers.for_run(provider_names))


class GabbiRequestError(Exception):
    """Requests of a file errored and none failed an assertion."""


def _failure_message(path, meta, failures, errors, requests):
    if failures:
        lines = ['spec rule broken: %s' % meta['rule'],
                 '%s: %d of %d requests failed' % (
                     os.path.basename(path), len(failures), requests)]
    else:
        lines = ['no verdict on the rule: %s' % meta['rule']]
    if errors:
        lines.append('%s: %d of %d requests errored (no answer judged)' % (
            os.path.basename(path), len(errors), requests))
    for kind, problems in (('', failures), (' (error)', errors)):
        for case, trace in problems:
            name = case.test_data.get('name', case.id()) if hasattr(
                case, 'test_data') else case.id()
            lines.append('--- %s%s' % (name, kind))
            lines.append(_useful_part(trace))
    return '\n'.join(lines)


def _useful_part(trace):
    """The assertion text of a gabbi failure, without the traceback."""
    lines = trace.rstrip().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(('AssertionError', 'gabbi.exception',
                            'testtools.matchers', 'Exception',
                            'GabbiFormatError')) or ': ' in line and (
                line.split(':', 1)[0].endswith('Error')):
            return '\n'.join(lines[i:])[:4000]
    return '\n'.join(lines[-15:])


def generate_tests(cls):
    """Add one test method to ``cls`` per gabbi file of its service."""
    for path in gabbi_files.test_files(cls.gabbi_service):
        meta = gabbi_files.load(path)['meta']
        name = gabbi_files.test_name(path)
        if hasattr(cls, name):
            raise gabbi_files.GabbiFileError(
                '%s: two files map to test %s' % (path, name))
        setattr(cls, name, _make_test(path, meta))
    return cls


def _make_test(path, meta):
    def test(self):
        self.run_gabbi_file(path)
    test.__doc__ = meta['rule']
    test.__name__ = gabbi_files.test_name(path)
    if meta.get('smoke'):
        # Tempest's tag of a quick, harmless test (`tempest run --smoke`).
        test = decorators.attr(type='smoke')(test)
    return decorators.idempotent_id(str(meta['id']))(test)
