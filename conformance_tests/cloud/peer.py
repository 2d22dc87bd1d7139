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

"""Upstream Tempest's own tests against the embedded cloud: a peer check.

    python -m conformance_tests.cloud.peer [--workdir W] [--port-base P]

Our suite was written by people who know the embedded cloud; Tempest's
own tests were not. They check that the cloud is a cloud to Tempest. The
list (peer_tests.txt, next to this module) names what to run and, for
every test that cannot pass here, why. The runner starts the cloud, runs
the list through `tempest run --include-list`, prints a summary, stops
the cloud, and exits 1 when a test fails or skips without an entry
saying why (or 2 on a problem the user can fix, in one line).
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import time

from conformance_tests.cloud import launcher
from conformance_tests.common import paths
from conformance_tests.common import ui
from conformance_tests.report import results as results_mod
from conformance_tests.runner import tempest_runner

LIST_FILE = os.path.join(os.path.dirname(__file__), 'peer_tests.txt')
DEFAULT_WORKDIR = os.path.join('.conformance', 'peer')
SUBUNIT = 'peer.subunit'
KINDS = ('run', 'skip', 'fail')

Entry = collections.namedtuple('Entry', 'kind prefix reason signature',
                               defaults=(None,))
# A fail entry excuses one failure only: ``fail <prefix> /<regex>/ why``,
# the regex searched in the failure's traceback.
SIGNATURE = re.compile(r'^/(?P<regex>(?:[^/\\]|\\.)+)/\s+(?P<why>.+)$')


class PeerListError(Exception):
    pass


def parse(lines):
    """Entries from the list: ``<run|skip|fail> <test id prefix> [why]``."""
    entries = []
    for number, line in enumerate(lines, 1):
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if parts[0] not in KINDS or len(parts) < 2:
            raise PeerListError(
                'line %d: want "<%s> <test id prefix> [reason]", got %r' % (
                    number, '|'.join(KINDS), line))
        reason = parts[2] if len(parts) > 2 else ''
        if parts[0] != 'run' and not reason:
            raise PeerListError('line %d: a %s entry must say why' % (
                number, parts[0]))
        signature = None
        if parts[0] == 'fail':
            match = SIGNATURE.match(reason)
            if not match:
                raise PeerListError(
                    'line %d: a fail entry names the failure it excuses: '
                    '"fail <prefix> /<regex>/ <why>"' % number)
            signature = re.compile(match.group('regex'))
            reason = match.group('why')
        entries.append(Entry(parts[0], parts[1], reason, signature))
    return entries


def load(path=LIST_FILE):
    with open(path) as f:
        return parse(f)


def include_regexes(entries):
    return ['^%s' % re.escape(e.prefix) for e in entries if e.kind == 'run']


def _test_name(name):
    """A class-level event ("setUpClass (mod.Class)") names its class."""
    match = re.match(r'^\w+ \((.+)\)$', name)
    return match.group(1) if match else name


def judge(results, entries):
    """Sort each result: passed, expected (listed skip/fail), unexpected.

    A listed reason covers the tests whose id starts with its prefix.
    """
    verdict = {'passed': [], 'expected': [], 'unexpected': []}
    for result in sorted(results.values(), key=lambda r: r['name']):
        name = _test_name(result['name'])
        if result['status'] == 'pass':
            verdict['passed'].append((name, ''))
            continue
        listed = [e for e in entries if e.kind == result['status']
                  and name.startswith(e.prefix)
                  and (e.signature is None
                       or e.signature.search(result['reason'] or ''))]
        if listed:
            verdict['expected'].append((name, listed[0].reason))
        else:
            verdict['unexpected'].append((
                name, '%s: %s' % (result['status'], result['reason'][:300])))
    return verdict


def summary(verdict):
    lines = ['upstream Tempest peer check: %d passed, %d not passing as '
             'listed, %d unexpected' % tuple(
                 len(verdict[k]) for k in ('passed', 'expected',
                                           'unexpected'))]
    for name, why in verdict['expected']:
        lines.append('  listed     %s (%s)' % (name, why))
    for name, why in verdict['unexpected']:
        lines.append('  UNEXPECTED %s: %s' % (
            name, ' '.join(why.split())))
    return '\n'.join(lines)


def run_tempest(workspace, entries, subunit_path, concurrency):
    # The workspace may have run our suite, which discovers only the
    # plugin's tests: upstream's own need Tempest's discovery.
    tempest_runner.point_discovery_here(workspace, conformance_only=False)
    include = os.path.join(workspace, 'peer-include.txt')
    with open(include, 'w') as f:
        f.write('\n'.join(include_regexes(entries)) + '\n')
    log = os.path.join(workspace, 'logs', 'tempest-peer.log')
    with open(subunit_path, 'wb') as out, open(log, 'wb') as err:
        subprocess.run([tempest_runner.tempest_executable(), 'run',
                        '--subunit', '--include-list',
                        include, '--concurrency', str(concurrency)],
                       cwd=workspace, stdout=out, stderr=err,
                       env=paths.tmp_env(workspace))
    with open(subunit_path, 'rb') as f:
        return results_mod.read(f)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.cloud.peer',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--workdir', default=DEFAULT_WORKDIR)
    parser.add_argument('--port-base', type=int,
                        default=launcher.DEFAULT_PORT_BASE)
    parser.add_argument('--concurrency', type=int, default=2)
    parser.add_argument('--list', default=LIST_FILE,
                        help='the peer list (default: %(default)s)')
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        entries = load(args.list)
        cloud = launcher.EmbeddedCloud(args.workdir,
                                       port_base=args.port_base)
        cloud.up()
        try:
            ui.say('running upstream Tempest peer tests')
            results = run_tempest(
                cloud.workspace, entries,
                os.path.join(cloud.workdir, SUBUNIT), args.concurrency)
        finally:
            cloud.down()
    except (OSError, PeerListError, launcher.CloudError) as e:
        ui.fail(str(e))
        return 2
    except KeyboardInterrupt:
        ui.fail('interrupted')
        return 130
    if not results:
        ui.fail('Tempest ran no peer test: see %s' % os.path.join(
            cloud.workspace, 'logs', 'tempest-peer.log'))
        return 1
    verdict = judge(results, entries)
    print(summary(verdict), flush=True)
    ui.say('peer check done in %.0f s' % (time.monotonic() - started))
    return 1 if verdict['unexpected'] else 0


if __name__ == '__main__':
    sys.exit(main())
