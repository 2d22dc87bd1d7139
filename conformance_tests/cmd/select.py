"""`conformance select`: the Tempest regex of a scope (derived from
guidelines/), for a Tempest run of one's own."""

from conformance_tests.cmd import base
from conformance_tests.cmd import options


def add_parser(sub):
    sel = sub.add_parser('select', help=(
        'print the Tempest regex of a scope (derived from guidelines/)'))
    options.scope(sel)
    sel.set_defaults(func=cmd_select)


class Select(base.Command):
    name = 'select'


def cmd_select(args):
    print(options.scope_of(args).regex())
    return 0
