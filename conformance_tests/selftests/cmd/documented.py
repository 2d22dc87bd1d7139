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

"""Every `conformance ...` command the README and doc/*.md show, as argv.

A command is found where a reader would copy it from: at the start of a
line of a fenced code block (with its indented continuation lines), inside
``$(...)`` there, or in an inline code span of the prose. Its notation
becomes a command that can run: ``[--seed NNN]`` is included with the
brackets dropped, ``S ...`` (repeatable) is one ``S``, and a placeholder
(an upper-case word, ``<its tempest.conf>``, ``...`` where a value goes)
becomes a value of the option before it (``values``), because argparse
checks choices and types. A prose span that names a command or an option
without what it needs (`conformance preflight`, `conformance run
--tempest-conf`) gets that too.
"""

import argparse
import glob
import os
import re

import conformance_tests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(
    conformance_tests.__file__)))
_FENCE = re.compile(r'^\s*(```|~~~)')
_SPAN = re.compile(r'`([^`]+)`')
# Where a command starts: a line's start, or a command substitution; it
# ends at a comment, a pipe, a list separator, a redirection or the
# substitution's end.
_COMMAND = re.compile(
    r'(?:^|\$\(|&&|;)\s*conformance\s+((?:<[^>]*>|[^#|;&)"<>])*)')
_PLACEHOLDER = re.compile(r'^([A-Z][A-Z0-9_]*|\.\.\.|<[^>]*>)$')
_ANGLED = re.compile(r'<[^>]*>')


class Documented(object):
    """One command as a doc shows it: where, the text, the argv."""

    def __init__(self, where, text, argv):
        self.where, self.text, self.argv = where, text, argv

    def __repr__(self):
        return '%s: `conformance %s`' % (self.where, self.text)


def doc_files(root=ROOT):
    return [os.path.join(root, 'README.md')] + sorted(
        glob.glob(os.path.join(root, 'doc', '*.md')))


def commands(path, values, parser, root=ROOT):
    """The documented commands of the Markdown file ``path``."""
    with open(path) as f:
        lines = f.read().split('\n')
    name = os.path.relpath(path, root)
    found = []  # (line number, text, whether from prose)
    prose = list(lines)
    fenced = False
    last = None  # the command of the block line just before, if any
    for number, line in enumerate(lines, 1):
        fence = _FENCE.match(line)
        fenced = fenced != bool(fence)
        if fenced or fence:
            prose[number - 1] = ''  # a span never reaches into a block
        if not fenced or fence:
            last = None
            continue
        code = line.split(' #')[0]
        if last is not None and line[:1].isspace() and \
                code.strip()[:1] in ('[', '-'):
            # an indented continuation line of the command above
            first, cmd, _ = found[last]
            found[last] = (first, cmd + ' ' + code.strip(), False)
            continue
        last = None
        for match in _COMMAND.finditer(code):
            found.append((number, match.group(1).strip(), False))
            last = len(found) - 1
    text = '\n'.join(prose)
    for span in _SPAN.finditer(text):
        number = text.count('\n', 0, span.start()) + 1
        for match in _COMMAND.finditer(' '.join(span.group(1).split())):
            found.append((number, match.group(1).strip(), True))
    return [Documented('%s:%d' % (name, number), cmd,
                       argv(cmd, values, parser, prose=from_prose))
            for number, cmd, from_prose in found]


def argv(text, values, parser, prose=False):
    """``text`` (after `conformance`) as the argv it documents."""
    tokens = _ANGLED.sub('PLACEHOLDER', text).replace(
        '[', ' ').replace(']', ' ').split()
    out = []
    for token in tokens:
        option = out[-1] if out and out[-1].startswith('-') else None
        if _PLACEHOLDER.match(token) or token == 'PLACEHOLDER':
            if option:
                out.append(values.get(option, 'placeholder'))
            elif token != '...':  # after a value, '...' repeats it
                out.append(values.get(token, 'placeholder'))
        else:
            out.append(token)
    if prose:
        _complete(parser, out, values)
    return out


def _complete(parser, argv, values):
    """Prose names a command or an option (`conformance preflight`,
    `conformance run --tempest-conf`): give the option named last its
    value and the command its required options, as a reader would."""
    for word in argv:
        subs = [a for a in parser._actions
                if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            break
        parser = subs[0].choices[word]
    action = parser._option_string_actions.get(argv[-1]) if argv else None
    if action and action.nargs is None:
        argv.append(values.get(argv[-1], 'placeholder'))
    for action in parser._actions:
        if action.required and action.option_strings and not set(
                action.option_strings).intersection(argv):
            option = action.option_strings[-1]
            argv += [option, values.get(option, 'placeholder')]
