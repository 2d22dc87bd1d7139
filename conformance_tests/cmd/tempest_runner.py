"""Run the conformance tests through real Tempest, with progress lines.

`tempest run --subunit` writes the result stream to stdout; it is saved
to a file and read as it arrives so that a person sees "test n of N".
"""

import io
import os
import subprocess
import sys

import subunit
import testtools

from conformance_tests.report import results as results_mod

TEST_REGEX = r'^conformance_tests\.'


def _tempest():
    return os.path.join(os.path.dirname(sys.executable), 'tempest')


class RunError(Exception):
    pass


def list_tests(workspace, regex=TEST_REGEX):
    done = subprocess.run(
        [_tempest(), 'run', '--list-tests', '--regex', regex],
        cwd=workspace, capture_output=True, text=True)
    if done.returncode:
        raise RunError('`tempest run --list-tests` failed in %s: %s' % (
            workspace, (done.stderr.strip().splitlines() or ['?'])[-1]))
    return [line for line in done.stdout.splitlines()
            if line.startswith('conformance_tests.')]


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
        quiet=False):
    """Run the tests; return {idempotent id: result} from the stream."""
    total = len(list_tests(workspace, regex))
    if total == 0:
        raise RunError('Tempest finds no conformance test: is the plugin '
                       'installed in this environment?')
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
        progress.startTestRun()
        case.run(progress)
        progress.stopTestRun()
        proc.wait()
    with open(subunit_path, 'rb') as f:
        return results_mod.read(f)
