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

"""The tempest.conf `conformance config` writes (0600: it holds the
credentials): python-tempestconf's file, the suite's findings where the
user gave no value, the user's values over both, and a header saying
where each of the suite's values came from and what is left to set by
hand."""

import configparser
import io

from conformance_tests.cloud import secrets as secret_files


def parse_overrides(words):
    """[(section, option, value)] of `section.option value` pairs, or
    ValueError saying what is wrong (one line)."""
    if len(words) % 2:
        raise ValueError('the overrides are `section.option value` pairs; '
                         '%s has no value' % words[-1])
    pairs = []
    for key, value in zip(words[::2], words[1::2]):
        section, dot, option = key.partition('.')
        if not dot or not section or not option or '.' in option:
            raise ValueError('%s: an override is section.option (e.g. '
                             'conformance.allow_disruption true)' % key)
        pairs.append((section, option, value))
    return pairs


def merge(tempestconf_path, findings, overrides):
    """The ConfigParser of the final file."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    with open(tempestconf_path, encoding='utf-8') as f:
        parser.read_file(f)
    # The user's values last: they win.
    for finding in findings:
        _set(parser, finding.section, finding.option, finding.value)
    for section, option, value in overrides:
        _set(parser, section, option, value)
    return parser


def _set(parser, section, option, value):
    if section != 'DEFAULT' and not parser.has_section(section):
        parser.add_section(section)
    parser.set(section, option, value)


def not_given(findings, missing, overrides):
    """(the findings, the options still missing) the user did not give
    a value for: what the command and the file's header name."""
    given = {(s, o) for s, o, _ in overrides}
    return ([f for f in findings if (f.section, f.option) not in given],
            [m for m in missing if (m[0], m[1]) not in given])


def header(used, left):
    """The comment block at the top of the file (not_given's lists)."""
    lines = ['Written by `conformance config`: python-tempestconf\'s '
             'discovery, then the suite\'s', 'own (below), then the '
             'values given on its command line.', '']
    if used:
        lines.append('Found by the suite:')
        lines.extend('  [%s] %s = %s: %s' % (
            f.section, f.option, f.value, f.why) for f in used)
        lines.append('')
    if left:
        lines.append('Not found (no API tells them; the tests that need '
                     'them skip and say so).')
        lines.append('Set one with `conformance config ... section.option '
                     'VALUE`:')
        lines.extend('  [%s] %s: %s' % m for m in left)
    return ''.join('# %s\n' % line if line else '#\n' for line in lines)


def write(path, parser, comment):
    text = io.StringIO()
    parser.write(text)
    with secret_files.private_open(path) as f:
        f.write(comment + '\n' + text.getvalue())
