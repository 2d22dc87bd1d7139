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

"""The playbooks' shell tasks start the way they run on a DevStack node:
each one that sources DevStack's openrc does so, with the shell options
it sets first, against DevStack's own files of every branch a job of ours
runs on (../shared/upstream's tarballs). conformance-compute on a real
DevStack failed its zone setup with `set -u` before the openrc
(`_DEVSTACK_FUNCTIONS: unbound variable`); the packaged cloud, whose
admin_openrc is its own, never showed it."""

import fnmatch
import glob
import os
import re
import shlex
import subprocess
import tarfile

import fixtures
import testtools
import yaml

from conformance_tests.selftests.devstack import test_zuul_jobs

PLAYBOOKS = os.path.join(test_zuul_jobs.ROOT, 'playbooks')
BRANCHES = ('unmaintained/2024.1', 'stable/2025.1', 'stable/2026.1',
            'master')
OPENRC = '{{ admin_openrc }}'


def shells_sourcing_openrc():
    """(playbook, task name, script) of every shell task that sources
    the admin openrc."""
    found = []
    for path in sorted(glob.glob(os.path.join(PLAYBOOKS, '*.yaml'))):
        with open(path) as f:
            plays = yaml.safe_load(f) or []
        for play in plays:
            for task in play.get('tasks') or []:
                script = task.get('ansible.builtin.shell') or ''
                if isinstance(script, str) and OPENRC in script:
                    found.append((os.path.basename(path), task['name'],
                                  script))
    return found


def prologue(script):
    """The script up to the first line after the openrc that is only
    shell options (``set -u``), or through the openrc line."""
    lines = script.splitlines()
    at = next(i for i, line in enumerate(lines) if OPENRC in line)
    end = next((i for i in range(at, len(lines))
                if re.match(r'^\s*set -[a-z]*u', lines[i])), at)
    return '\n'.join(lines[:end + 1])


class OpenrcPrologueTest(testtools.TestCase):

    def test_there_are_such_tasks(self):
        names = {playbook for playbook, _, _ in shells_sourcing_openrc()}
        self.assertEqual({'conformance-zone-setup.yaml',
                          'conformance-blazar-setup.yaml',
                          'conformance-cells-setup.yaml'}, names)

    def _devstack(self, branch):
        tarball = test_zuul_jobs.devstack_tarball(self, branch)
        top = self.useFixture(fixtures.TempDir()).path
        with tarfile.open(tarball) as tar:
            tar.extractall(top, filter='tar')
        return os.path.join(top, 'devstack')

    def test_each_prologue_runs_with_devstacks_openrc(self):
        for branch in BRANCHES:
            devstack = self._devstack(branch)
            scratch = self.useFixture(fixtures.TempDir()).path
            for playbook, task, script in shells_sourcing_openrc():
                text = prologue(script).replace(
                    OPENRC, 'source %s/openrc admin admin' % devstack)
                text = text.replace('{{ ini_config }}',
                                    devstack + '/inc/ini-config')
                if 'ini-config' in text:
                    # what the task does with it, under its options
                    text += '\niniset %s/t.conf conformance x "a b"' % (
                        scratch)
                self.assertNotIn('{{', text, '%s: %s' % (playbook, task))
                done = subprocess.run(
                    ['bash', '-c', text + '\necho prologue-done'],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    text=True, cwd=scratch,
                    env={'PATH': os.environ['PATH'], 'HOME': scratch})
                self.assertIn('prologue-done', done.stdout,
                              '%s, task "%s", DevStack %s: %s' % (
                                  playbook, task, branch,
                                  done.stderr.strip()[-300:]))


class CellsSetupRestartTest(testtools.TestCase):
    """conformance-cells-setup restarts what caches cell mappings and no
    nova-compute: on stable/2025.1 its `systemctl restart 'devstack@n-*'`
    left no compute running (nova 31's fake driver gives its node a new
    uuid at every start, and nova refuses the restart), so every boot of
    conformance-quota-cells-2025-1 found no valid host."""

    UNITS = {'devstack@n-api': True, 'devstack@n-api-meta': True,
             'devstack@n-sch': True, 'devstack@n-super-cond': True,
             'devstack@n-cond-cell1': True, 'devstack@n-cond-cell2': True,
             'devstack@n-cpu': False, 'devstack@n-cpu-1': False,
             'devstack@n-cpu-compute1': False}

    def test_the_restart_names_the_api_scheduler_and_conductors_only(self):
        with open(os.path.join(PLAYBOOKS,
                               'conformance-cells-setup.yaml')) as f:
            command = yaml.safe_load(f)[0]['vars']['nova_restart']
        words = shlex.split(command)
        self.assertEqual(['systemctl', 'restart'], words[:2])
        restarted = {unit: any(fnmatch.fnmatchcase(unit, pattern)
                               for pattern in words[2:])
                     for unit in self.UNITS}
        self.assertEqual(self.UNITS, restarted)
