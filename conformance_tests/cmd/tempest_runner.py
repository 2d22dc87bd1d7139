"""Run the conformance tests through real Tempest, with progress lines.

`tempest run --subunit` writes the result stream to stdout; it is saved
to a file and read as it arrives so that a person sees "test n of N".
"""

import io
import os
import re
import subprocess
import sys
import threading

import subunit
import testtools

from conformance_tests.report import results as results_mod

TEST_REGEX = r'^conformance_tests\.'
STESTR_CONF = """[DEFAULT]
test_path=%s
top_dir=%s
group_regex=([^\\.]*\\.)*
"""


def _tempest():
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


def point_discovery_here(workspace):
    """Make the workspace discover tests with this interpreter's Tempest.

    `tempest init` writes its own installation's path into .stestr.conf;
    a workspace made from another virtualenv (e.g. .tox/conformance, then
    used from .tox/check) would import Tempest twice and fail discovery
    with "module incorrectly imported". Rewritten before every run.
    """
    import tempest
    top = os.path.dirname(os.path.dirname(os.path.abspath(tempest.__file__)))
    with open(os.path.join(workspace, '.stestr.conf'), 'w') as f:
        f.write(STESTR_CONF % (os.path.join(top, 'tempest', 'test_discover'),
                               top))


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
    point_discovery_here(workspace)
    done = subprocess.run(
        [_tempest(), 'run', '--list-tests', '--regex', regex],
        cwd=workspace, capture_output=True, text=True)
    if done.returncode:
        raise RunError('`tempest run --list-tests` failed in %s: %s' % (
            workspace, _last_error_line(done.stderr or done.stdout)))
    return [line for line in done.stdout.splitlines()
            if line.startswith('conformance_tests.')]


class Listing(object):
    """Tempest's list of conformance tests, asked for once, then filtered
    by each run's regex here.

    Each `tempest run --list-tests` is a Tempest start (3.2 s on a quiet
    2-core machine); a mutant run asked for one per mutant. Filtering
    with re.search over the listed names is what stestr does with
    `--regex`, so the count is the same as Tempest's.
    """

    def __init__(self):
        self._tests = None
        self._lock = threading.Lock()

    def select(self, workspace, regex):
        with self._lock:
            if self._tests is None:
                self._tests = list_tests(workspace)
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


def run(workspace, subunit_path, say, concurrency=2, regex=TEST_REGEX,
        quiet=False, listing=None):
    """Run the tests; return {idempotent id: result} from the stream.

    ``listing``: a Listing shared by the runs of one session (a mutant
    run), so that Tempest lists the tests once, not once per run."""
    point_discovery_here(workspace)
    total = len((listing or Listing()).select(workspace, regex))
    if total == 0:
        raise RunError('Tempest finds no conformance test for this scope: '
                       'is the plugin installed in this environment?')
    log_path = os.path.join(workspace, 'logs', 'tempest-run.log')
    with open(subunit_path, 'wb') as sink, open(log_path, 'wb') as log:
        proc = subprocess.Popen(
            [_tempest(), 'run', '--subunit', '--regex', regex,
             '--concurrency', str(concurrency)],
            cwd=workspace, stdout=subprocess.PIPE, stderr=log)
        progress = _Progress(total, (lambda m: None) if quiet else say)
        case = subunit.ByteStreamToStreamResult(
            io.BufferedReader(_Tee(proc.stdout, sink)),
            non_subunit_name='stdout')
        try:
            progress.startTestRun()
            case.run(progress)
            progress.stopTestRun()
        except BaseException:
            # Ctrl-C or SIGTERM: the cloud goes down next, so Tempest
            # must not go on testing it.
            proc.terminate()
            proc.wait()
            raise
        proc.wait()
    with open(subunit_path, 'rb') as f:
        results = results_mod.read(f)
    if not results:
        with open(log_path) as f:
            raise RunError('Tempest ran no test (exit %s): %s' % (
                proc.returncode, _last_error_line(f.read())))
    return results
