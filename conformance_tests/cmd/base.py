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

"""What every `conformance` command is to cliff (cmd/main.py's App).

Each cmd/<name>.py defines its options once, in its ``add_parser(sub)``
(what ``main.build_parser()`` assembles for the self-tests and the
documented-commands check), and one ``Command`` subclass naming its
words, which main.py registers with cliff (from main.COMMANDS, not from
entry points: main.ConformanceApp says why). cliff finds the command and
prints the help; this class hands cliff the very parser ``add_parser``
builds, re-runs the command in an older series' virtualenv for
``--release``, runs the module's function, and turns what a command
raises into the one-line errors of the house (exit 2).
"""

import argparse
import os
import sys

from cliff import command

from conformance_tests.cmd.errors import CommandError
from conformance_tests.common import ui
from conformance_tests.report.scope import ScopeError


class _OneCommand(object):
    """Stands in for argparse's subparsers action in ``add_parser(sub)``:
    the parser it gives for ``name`` is the one cliff runs; any other
    command a module registers (bundle's verify-bundle) goes to a parser
    nobody reads."""

    def __init__(self, name, prog):
        self.name, self.prog = name, prog
        self.parser = None
        self.help = None

    def add_parser(self, name, **kwargs):
        help_text = kwargs.pop('help', None)
        parser = argparse.ArgumentParser(
            prog=self.prog, description=help_text, **kwargs)
        if name == self.name:
            self.parser, self.help = parser, help_text
        return parser


class Command(command.Command):
    """`conformance <name>`: the options and the function of the module
    that defines the subclass."""

    #: the words after `conformance`
    name = None

    def _built(self, prog_name):
        """(the command's parser, its one-line help). A command of two
        words (`cloud up`) is the second word's parser under the first's
        subparsers, with that word set where its module reads it."""
        first, *rest = self.name.split()
        holder = _OneCommand(first, prog_name)
        sys.modules[type(self).__module__].add_parser(holder)
        if holder.parser is None:
            raise LookupError('%s.add_parser defines no command %r' % (
                type(self).__module__, first))
        parser, help_text = holder.parser, holder.help
        for word in rest:
            (words,) = [a for a in parser._actions
                        if isinstance(a, argparse._SubParsersAction)]
            help_text = {c.dest: c.help
                         for c in words._choices_actions}.get(word)
            parser = words.choices[word]
            parser.set_defaults(**{words.dest: word})
        parser.prog = prog_name
        parser.description = parser.description or help_text
        return parser, help_text

    def get_description(self):
        return self._built('conformance %s' % self.name)[1] or ''

    def get_parser(self, prog_name):
        return self._built(prog_name)[0]

    def take_action(self, parsed_args):
        return parsed_args.func(parsed_args)

    def run(self, parsed_args):
        try:
            on_release(parsed_args, self.app.argv)
            return super().run(parsed_args)
        except KeyboardInterrupt:
            ui.fail('interrupted')
            return 130
        except (CommandError, ScopeError, FileNotFoundError) as e:
            ui.fail(str(e))
            return 2


def release_env(series, venv, environ=None):
    """The environment of a command re-run in ``series``' virtualenv: it
    names the series, and what it starts by name (stestr's workers) is
    that virtualenv's."""
    env = dict(os.environ if environ is None else environ)
    env.pop('PYTHONHOME', None)
    env['CONFORMANCE_RELEASE'] = series
    env['VIRTUAL_ENV'] = venv
    env['PATH'] = os.pathsep.join(
        [os.path.join(venv, 'bin')] +
        [p for p in env.get('PATH', '').split(os.pathsep) if p])
    return env


def on_release(args, argv):
    """With `--release` of an older series, re-run this command in that
    series' virtualenv (built first if needed; cloud/releases.py), with
    $CONFORMANCE_RELEASE naming the series: this process ends there.
    The current series (the default) changes nothing."""
    from conformance_tests.cloud import releases
    series = getattr(args, 'release', None)
    if series is None or series == releases.CURRENT:
        return
    if getattr(args, 'tempest_conf', None):
        # A vendor's cloud runs that series: its verdicts are judged by
        # the series' expectations (cmd/run.py), the suite runs here.
        return
    try:
        venv = releases.ensure_venv(series, ui.say)
    except releases.ReleaseError as e:
        raise CommandError(str(e))
    cmd = releases.command(venv, argv)
    if not os.access(cmd[0], os.X_OK):
        raise CommandError('the %s virtualenv has no %s: remove %s so that '
                           '`--release %s` builds it again' % (
                               series, cmd[0], venv, series))
    ui.say('release %s: running in %s' % (series, venv))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(cmd[0], cmd, release_env(series, venv))
    except OSError as e:
        raise CommandError('cannot run %s: %s' % (cmd[0], e))
