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

"""`conformance select`: a scope's tests (derived from guidelines/), for a
Tempest run of one's own: as the regex of `tempest run --regex`, or as
the file of `tempest run --load-list`."""

from conformance_tests.cmd import base
from conformance_tests.cmd import options


def add_parser(sub):
    sel = sub.add_parser('select', help=(
        'print the Tempest regex of a scope (derived from guidelines/), '
        'or its tests as a load-list'))
    options.scope(sel)
    sel.add_argument('--format', choices=('regex', 'load-list'),
                     default='regex', help=(
                         'regex (default): for `tempest run --regex`; '
                         'load-list: each test\'s full name as Tempest '
                         'lists it, one a line, for `tempest run '
                         '--load-list FILE`'))
    sel.set_defaults(func=cmd_select)


class Select(base.Command):
    name = 'select'


def cmd_select(args):
    scope = options.scope_of(args)
    if args.format == 'load-list':
        print('\n'.join(scope.load_list()))
    else:
        print(scope.regex())
    return 0
