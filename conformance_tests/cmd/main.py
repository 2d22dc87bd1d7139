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

"""`conformance`: run the suite, drive the embedded cloud, build reports.

    conformance run                 cloud up, whole suite through Tempest,
                                    report, cloud down
    conformance mutants             the suite against every mutant
    conformance cloud up|down       the embedded cloud alone
    conformance report              rebuild the report from the last run
    conformance preflight           is a tempest.conf's cloud fit to run it
    conformance config              write a tempest.conf for a cloud
                                    (python-tempestconf, then the suite's
                                    own options), then preflight it
    conformance cleanup             remove leftovers of an interrupted run
    conformance bundle              the last run as a certification bundle
    conformance verify-bundle FILE  recompute a bundle's verdicts, check it
    conformance matrix              the suite on each series, one table
    conformance packaged up|down|run|status
                                    Debian 13's packaged OpenStack 2025.1
                                    in a chroot, the suite against it
"""

import argparse
import importlib
from importlib import metadata
import signal
import sys

from cliff import app
from cliff import commandmanager
from cliff import help as cliff_help

from conformance_tests.cmd import base
from conformance_tests.common import ui

#: One module per command, cmd/<name>.py: its parser, its function,
#: which call the rooms below (cloud/, report/, runner/, ...), and its
#: cliff Command (cmd/base.py).
COMMANDS = ('run', 'mutants', 'report', 'select', 'cloud', 'bench',
            'cleanup', 'bundle', 'preflight', 'matrix', 'packaged',
            'devstack', 'config')
DESCRIPTION = 'Conformance suite for five OpenStack features.'


def build_parser():
    """Every command's argparse parser under one root, as each module's
    add_parser defines it: what the self-tests and the
    documented-commands check parse with (cliff runs the same parsers,
    one at a time)."""
    parser = argparse.ArgumentParser(prog='conformance',
                                     description=DESCRIPTION)
    sub = parser.add_subparsers(dest='command', required=True)
    for name in COMMANDS:
        module = importlib.import_module('conformance_tests.cmd.' + name)
        module.add_parser(sub)
    return parser


def command_classes():
    """{word: cliff Command class} of every command module."""
    found = {}
    for name in COMMANDS:
        module = importlib.import_module('conformance_tests.cmd.' + name)
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, base.Command)
                    and value.__module__ == module.__name__):
                found[value.name] = value
    return found


class ConformanceApp(app.App):
    """`conformance`, a cliff App as `tempest` and `openstack` are.

    The commands are registered from COMMANDS, not read from entry
    points: an editable install's entry points are its metadata as of
    its last `pip install`, and each older series' virtualenv keeps
    one install across edits of the same checkout (cloud/releases.py),
    where a command added since would not be found."""

    NAME = 'conformance'

    def build_option_parser(self, description, version,
                            argparse_kwargs=None):
        # cliff names the program after sys.argv[0] (`main.py` under
        # `python -m`); the command is `conformance` however it started.
        parser = super().build_option_parser(
            description, version, dict(argparse_kwargs or {},
                                       prog=self.NAME))
        for action in parser._actions:
            if isinstance(action, argparse._VersionAction):
                action.version = '%s %s' % (self.NAME, version)
        return parser

    def __init__(self, argv):
        #: the command line as given: `--release` re-runs it as it is
        self.argv = list(argv)
        manager = commandmanager.CommandManager(None)
        for word, cls in sorted(command_classes().items()):
            manager.add_command(word, cls)
        super().__init__(DESCRIPTION, _version(), manager,
                         deferred_help=True)


def _version():
    try:
        return metadata.version('openstack-conformance-tests')
    except metadata.PackageNotFoundError:
        return 'unknown (not installed)'


class Terminated(BaseException):
    """SIGTERM, raised where the main thread is, so that every `finally`
    runs: a run or mutant run stopped by a CI timeout or `kill` stops
    the cloud it started (its processes are in sessions of their own,
    so nothing else would), as Ctrl-C does."""


def _terminate(signum, frame):
    raise Terminated()


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        ui.fail('name a command (`conformance --help` lists them)')
        return 2
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return ConformanceApp(argv).run(argv)
    except cliff_help.HelpExit:
        return 0  # `conformance --help`: the help is printed
    except Terminated:
        ui.fail('terminated (SIGTERM); what it started is stopped')
        return 143
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == '__main__':
    sys.exit(main())
