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

"""Run the conformance tests through real Tempest, with progress lines.

`tempest run --subunit` writes the result stream to stdout; it is saved
to a file and read as it arrives so that a person sees "test n of N".
"""

import ast
import functools
import importlib.util
import io
import os
import re
import subprocess
import sys
import threading

import subunit
import testtools

from conformance_tests.common import paths
from conformance_tests.report import results as results_mod
from conformance_tests.runner import worker_plan

TEST_REGEX = r'^conformance_tests\.'
STESTR_CONF = """[DEFAULT]
test_path=%s
top_dir=%s
group_regex=([^\\.]*\\.)*
"""
# The run's selected tests, one Tempest name a line, in its workspace.
SELECTED = 'selected-tests.txt'


def tempest_executable():
    """This interpreter's `tempest` command."""
    return os.path.join(os.path.dirname(sys.executable), 'tempest')


class RunError(Exception):
    pass


def selection_regex(test_ids):
    """The Tempest regex that selects exactly the tests with these
    idempotent ids (Tempest lists a test as name[id-<uuid>,...])."""
    if not test_ids:
        raise RunError('nothing to run: the scope selects no test')
    bad = [t for t in test_ids if not re.match(r'^[0-9a-fA-F-]+$', t)]
    if bad:
        raise RunError('not an idempotent id: %s' % ', '.join(bad))
    return r'^conformance_tests\..*[\[,]id-(%s)[\],]' % '|'.join(
        sorted(test_ids))


def point_discovery_here(workspace, conformance_only=True):
    """Make the workspace discover tests with this interpreter's packages.

    `tempest init` writes its own installation's path into .stestr.conf;
    a workspace made from another virtualenv (e.g. .tox/conformance, then
    used from .tox/check) would import Tempest twice and fail discovery
    with "module incorrectly imported". Rewritten before every run.

    ``conformance_only``: discover only this plugin's tests, from the
    directory and top the plugin gives Tempest, so the test ids are the
    ones Tempest's own discovery gives; nothing of Tempest's own tests
    is imported only to be filtered out. Off for upstream's own tests
    (the peer check).
    """
    if conformance_only:
        from conformance_tests import plugin
        test_path, top = plugin.ConformancePlugin().load_tests()
    else:
        import tempest
        top = os.path.dirname(os.path.dirname(
            os.path.abspath(tempest.__file__)))
        test_path = os.path.join(top, 'tempest', 'test_discover')
    # Replaced whole, never rewritten in place: a listing may be reading
    # it (Listing.prefetch).
    path = os.path.join(workspace, '.stestr.conf')
    with open(path + '.new', 'w') as f:
        f.write(STESTR_CONF % (test_path, top))
    os.replace(path + '.new', path)


def _last_error_line(text):
    """Tempest's own last error, never a bare '?'.

    Discovery prints "Failed to import test module: X" and a traceback
    before a closing sentence; the module and the exception are what a
    person needs, so they are preferred to the closing sentence.
    """
    lines = [line.rstrip() for line in (text or '').splitlines()
             if line.strip()]
    if not lines:
        return 'no output (see the workspace\'s logs/)'
    module = next((line for line in lines
                   if line.startswith('Failed to import test module')), '')
    error = next((line for line in reversed(lines) if re.match(
        r'^[A-Za-z_][\w.]*(Error|Exception|Exit)\b', line)), '')
    found = '; '.join(part for part in (module, error) if part)
    return (found or lines[-1].strip())[-400:]


def list_tests(workspace, regex=TEST_REGEX):
    """The tests Tempest discovers in this workspace.

    Listed without the workspace's tempest.conf (TEMPEST_CONFIG names a
    file that is not there, so Tempest takes its defaults): a test's
    name does not depend on the config, and the embedded cloud writes
    tempest.conf only once it is up, which is after its listing starts.
    """
    point_discovery_here(workspace)
    env = paths.tmp_env(workspace, dict(
        os.environ, TEMPEST_CONFIG_DIR=os.path.join(workspace, 'etc'),
        TEMPEST_CONFIG='no-config-for-listing.conf'))
    done = subprocess.run(
        [tempest_executable(), 'run', '--list-tests', '--regex', regex],
        cwd=workspace, capture_output=True, text=True, env=env)
    if done.returncode:
        raise RunError('`tempest run --list-tests` failed in %s: %s' % (
            workspace, _last_error_line(done.stderr or done.stdout)))
    return [line for line in done.stdout.splitlines()
            if line.startswith('conformance_tests.')]


class Listing(object):
    """Tempest's list of conformance tests, asked for once, then filtered
    by each run's regex here.

    Each `tempest run --list-tests` is a Tempest start (3.2 s on a quiet
    2-core machine); a mutant run would ask for one per mutant. Filtering
    with re.search over the listed names is what stestr does with
    `--regex`, so the count is the same as Tempest's.
    """

    def __init__(self):
        self._tests = None
        self._error = None
        self._lock = threading.Lock()

    def prefetch(self, workspace):
        """List now (while a cloud starts, EmbeddedCloud.up's
        while_starting), keeping a failure for select() to raise."""
        with self._lock:
            if self._tests is None and self._error is None:
                try:
                    self._tests = list_tests(workspace)
                except RunError as e:
                    self._error = e

    def select(self, workspace, regex):
        self.prefetch(workspace)
        if self._error is not None:
            raise self._error
        pattern = re.compile(regex)
        return [t for t in self._tests if pattern.search(t)]


class _Tee(io.RawIOBase):
    """Read from a pipe and copy every byte to a file."""

    def __init__(self, source, sink):
        self.source, self.sink = source, sink

    def readable(self):
        return True

    def readinto(self, buffer):
        data = self.source.read1(len(buffer))
        self.sink.write(data)
        buffer[:len(data)] = data
        return len(data)


class _Progress(testtools.StreamResult):
    def __init__(self, total, say):
        super().__init__()
        self.total, self.say, self.done = total, say, 0

    def status(self, test_id=None, test_status=None, **kwargs):
        if test_status in results_mod.STATUS:
            self.done += 1
            name = results_mod.idempotent_id(test_id) and \
                results_mod._ATTRS.sub('', test_id).rsplit('.', 1)[-1]
            self.say('test %d of %d: %s %s' % (
                self.done, self.total, name or test_id,
                results_mod.STATUS[test_status]))


# services/reservation/v1/enrolment.py's mixin, by name: this process
# does not import what the tests import.
PREEMPTIBLE_HOSTS_MIXIN = 'PreemptibleHostsMixin'


def _is_serial_decorator(node):
    # @decorators.serial or @serial (tempest.lib.decorators.serial)
    target = node.func if isinstance(node, ast.Call) else node
    return (isinstance(target, ast.Attribute) and target.attr == 'serial'
            or isinstance(target, ast.Name) and target.id == 'serial')


def _base_name(node):
    # Base or Mixin, or module.Base
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


@functools.lru_cache(maxsize=None)
def _classes_in_module(module, marks):
    """Names of the classes of a module that ``marks(class node)`` holds
    for, read from its source: a subclass of such a class in the same
    module counts too (a decorator sets a class attribute; a mixin is
    inherited). Read once per process: a mutant run asks again for every
    mutant."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return frozenset()
    with open(spec.origin) as f:
        tree = ast.parse(f.read(), spec.origin)
    found = set()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {_base_name(b) for b in node.bases}
        if marks(node) or bases & found:
            found.add(node.name)
    return frozenset(found)


def _classes_of(test_names, marks):
    classes = {worker_plan.class_of(t) for t in test_names}
    found = set()
    for module in sorted({c.rsplit('.', 1)[0] for c in classes}):
        found |= {'%s.%s' % (module, name)
                  for name in _classes_in_module(module, marks)}
    return classes & found


def _marked_serial(node):
    return any(_is_serial_decorator(d) for d in node.decorator_list)


def _uses_preemptible_hosts(node):
    return any(_base_name(b) == PREEMPTIBLE_HOSTS_MIXIN for b in node.bases)


def serial_classes(test_names):
    """The classes of these tests that are Tempest's @serial.

    Read from the source, not imported: this process must not import
    the tests (their config is the workspace's). A @serial class missed
    here is still safe, only slower: Tempest's own lock still keeps it
    alone, in the same run as the others.
    """
    return _classes_of(test_names, _marked_serial)


def preemptible_host_classes(test_names):
    """The classes of these tests that hold blazar's preemptible hosts
    (enrolment.PreemptibleHostsMixin): one at a time, by the hosts' lock.
    Read from the source, as serial_classes; one missed here is still
    safe, only slower: it waits on that lock."""
    return _classes_of(test_names, _uses_preemptible_hosts)


def _load_list(workspace, filename, tests):
    path = os.path.join(workspace, filename)
    with open(path, 'w') as f:
        f.write(''.join(t + '\n' for t in tests))
    return ['--load-list', path]


def tempest_run_args(workspace, selected, concurrency):
    """The `tempest run` arguments that run these tests in one run, given
    the tests as a load list (stestr then starts its workers without
    listing the tests again in a process of its own, about 1.7 s) and,
    when more than one worker is worth starting, the worker file of
    worker_plan: the classes that may share the cloud balanced over
    ``concurrency`` workers (those that take blazar's preemptible hosts,
    one at a time, on one of them), the @serial ones on a worker of
    their own.
    With ``concurrency`` 1 every class runs on one worker; Tempest's lock
    has nothing to wait for there.
    """
    serial = serial_classes(selected)
    args = _load_list(workspace, SELECTED, selected)
    workers = worker_plan.plan(
        selected, serial, concurrency,
        worker_plan.known_times(workspace, selected),
        together=preemptible_host_classes(selected))
    if concurrency <= 1 or len(workers) <= 1:
        return args + ['--concurrency', '1']
    return args + ['--worker-file', worker_plan.write(workspace, workers)]


def _run_tempest(workspace, args, sink, log, progress, worker_env=None):
    """One `tempest run`, its stream appended to sink as it arrives.

    The workspace's tempest.conf is named in the environment, not left
    to be found from the working directory: Tempest computes that
    default once, on import, and a worker forked from a warm process
    (runner/warm_workers.py) imported Tempest elsewhere; a
    TEMPEST_CONFIG_DIR in the caller's shell must not win either."""
    env = paths.tmp_env(workspace)
    env.update(worker_env or {}, TEMPEST_CONFIG_DIR=os.path.join(
        os.path.abspath(workspace), 'etc'), TEMPEST_CONFIG='tempest.conf')
    proc = subprocess.Popen([tempest_executable(), 'run', '--subunit'] + args,
                            cwd=workspace, stdout=subprocess.PIPE,
                            stderr=log, env=env)
    case = subunit.ByteStreamToStreamResult(
        io.BufferedReader(_Tee(proc.stdout, sink)),
        non_subunit_name='stdout')
    try:
        case.run(progress)
    except BaseException:
        # Ctrl-C or SIGTERM: the cloud goes down next, so Tempest
        # must not go on testing it.
        proc.terminate()
        proc.wait()
        raise
    return proc.wait()


def run(workspace, subunit_path, say, concurrency=2, regex=TEST_REGEX,
        quiet=False, listing=None, worker_env=None):
    """Run the tests; return {idempotent id: result} from the stream.

    ``listing``: a Listing shared by the runs of one session (a mutant
    run), so that Tempest lists the tests once, not once per run.
    ``worker_env``: added to Tempest's environment (a mutant run's
    runner/warm_workers.py: its workers forked from a warm process)."""
    point_discovery_here(workspace)
    selected = (listing or Listing()).select(workspace, regex)
    if not selected:
        raise RunError('Tempest finds no conformance test for this scope: '
                       'is the plugin installed in this environment?')
    log_path = os.path.join(workspace, 'logs', 'tempest-run.log')
    progress = _Progress(len(selected), (lambda m: None) if quiet else say)
    with open(subunit_path, 'wb') as sink, open(log_path, 'wb') as log:
        progress.startTestRun()
        exit_code = _run_tempest(
            workspace, tempest_run_args(workspace, selected, concurrency),
            sink, log, progress, worker_env)
        progress.stopTestRun()
    with open(subunit_path, 'rb') as f:
        # A class that skipped (or failed) in its set-up reports once, for
        # the class: each of its selected tests gets that outcome.
        results = results_mod.attribute_class_outcomes(
            results_mod.read(f), selected)
    if not results:
        with open(log_path) as f:
            raise RunError('Tempest ran no test (exit %s): %s' % (
                exit_code, _last_error_line(f.read())))
    return results
