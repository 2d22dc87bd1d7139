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

"""Mutants of placement's forbidden-aggregate handling (spec seed 003).

Each function patches real placement 16 code in the placement process, at
the narrowest point that breaks exactly one rule of the spec.
"""

import threading

from conformance_tests.cloud.mutants import register


class _ForbiddenAggs(set):
    """A set of forbidden aggregates that remembers it is one.

    Lets a patched provider_ids_matching_aggregates() tell a forbidden
    lookup from a required one without changing any caller.
    """


def _mark_forbidden_sets():
    from placement import util
    original = util.normalize_member_of_qs_params

    def marked(req, suffix=''):
        required, forbidden = original(req, suffix)
        return required, _ForbiddenAggs(forbidden)

    util.normalize_member_of_qs_params = marked


@register(
    'forbidden-ignored', 'placement',
    targets=('placement.forbidden-aggregates.unnumbered-spans-tree',
             'placement.forbidden-aggregates.numbered-no-span',
             'placement.forbidden-aggregates.sharing-providers',
             'placement.forbidden-aggregates.resource-providers-direct',
             'placement.forbidden-aggregates.combined-membership'),
    rule='member_of=!<agg> excludes providers in <agg> (1.32)')
def forbidden_ignored():
    from placement import util
    original = util.normalize_member_of_qs_params

    def ignore_forbidden(req, suffix=''):
        required, _forbidden = original(req, suffix)
        return required, set()

    util.normalize_member_of_qs_params = ignore_forbidden


@register(
    'unnumbered-no-span', 'placement',
    targets=('placement.forbidden-aggregates.unnumbered-spans-tree',
             'placement.forbidden-aggregates.suffixed-groups'),
    rule='a forbidden aggregate on a root spans its whole tree for the '
         'unnumbered member_of')
def unnumbered_no_span():
    from placement.objects import rp_candidates

    def filter_by_own_membership(self, rp_ids):
        self.rp_candidates = set(
            p for p in self.rp_candidates if p.id not in rp_ids)

    rp_candidates.RPCandidateList.filter_by_rp_nor_tree = (
        filter_by_own_membership)


@register(
    'forbidden-root-spans-children-only', 'placement',
    targets=('placement.forbidden-aggregates.unnumbered-spans-tree',),
    rule='a forbidden aggregate on a root spans its whole tree for the '
         'unnumbered member_of, grandchildren included')
def forbidden_root_spans_children_only():
    # A provider is excluded when it or its parent (not its root) is in
    # the forbidden aggregate: the same as upstream on trees two levels
    # deep, where the parent of every child is the root.
    import sqlalchemy as sa

    from placement.objects import research_context as res_ctx
    from placement.objects import resource_provider as rp_obj
    from placement.objects import rp_candidates
    searching = threading.local()
    original_trees = res_ctx.get_trees_matching_all

    def trees(rg_ctx, rw_ctx):
        searching.context = rg_ctx.context
        try:
            return original_trees(rg_ctx, rw_ctx)
        finally:
            searching.context = None

    def filter_by_rp_nor_parent(self, rp_ids):
        tbl = rp_obj._RP_TBL
        sel = sa.select(tbl.c.id, tbl.c.parent_provider_id).where(
            tbl.c.id.in_([p.id for p in self.rp_candidates]))
        parent_of = dict(searching.context.session.execute(sel).fetchall())
        self.rp_candidates = set(
            p for p in self.rp_candidates
            if p.id not in rp_ids and parent_of.get(p.id) not in rp_ids)

    res_ctx.get_trees_matching_all = trees
    rp_candidates.RPCandidateList.filter_by_rp_nor_tree = (
        filter_by_rp_nor_parent)


@register(
    'numbered-spans', 'placement',
    targets=('placement.forbidden-aggregates.numbered-no-span',
             'placement.forbidden-aggregates.suffixed-groups'),
    rule='numbered member_of<N>=!<agg> does not span the tree')
def numbered_spans():
    from placement.objects import research_context as res_ctx
    original = res_ctx.get_provider_ids_matching

    def spanning(rg_ctx):
        found = original(rg_ctx)
        if rg_ctx.forbidden_aggs:
            bad = res_ctx.provider_ids_matching_aggregates(
                rg_ctx.context, [rg_ctx.forbidden_aggs])
            found = [ids for ids in found if ids[1] not in bad]
        return found

    res_ctx.get_provider_ids_matching = spanning


@register(
    'sharing-not-excluded', 'placement',
    targets=('placement.forbidden-aggregates.sharing-providers',),
    rule='a sharing provider in a forbidden aggregate is excluded')
def sharing_not_excluded():
    from placement.objects import research_context as res_ctx
    _mark_forbidden_sets()
    original = res_ctx.provider_ids_matching_aggregates

    def sparing_sharing(context, member_of, rp_ids=None):
        found = original(context, member_of, rp_ids)
        if member_of and isinstance(member_of[0], _ForbiddenAggs):
            found -= res_ctx.get_sharing_providers(context)
        return found

    res_ctx.provider_ids_matching_aggregates = sparing_sharing


@register(
    'repeated-forbidden-first-only', 'placement',
    targets=('placement.forbidden-aggregates.combined-membership',),
    rule='repeated member_of=!a&member_of=!b forbid both a and b')
def repeated_forbidden_first_only():
    from placement import util
    original = util.normalize_member_of_qs_params

    def first_only(req, suffix=''):
        required, _forbidden = original(req, suffix)
        for value in req.GET.getall('member_of' + suffix):
            forbidden = util.normalize_member_of_qs_param(value)[1]
            if forbidden:
                return required, forbidden
        return required, set()

    util.normalize_member_of_qs_params = first_only


@register(
    'forbidden-in-list-first-only', 'placement',
    targets=('placement.forbidden-aggregates.combined-membership',),
    rule='member_of=!in:a,b forbids every aggregate of the list, as '
         '!a&!b')
def forbidden_in_list_first_only():
    from placement import util
    original = util.normalize_member_of_qs_param

    def first_of_list(value):
        required, forbidden = original(value)
        if value.startswith('!in:'):
            forbidden = {value[4:].split(',')[0]}
        return required, forbidden

    util.normalize_member_of_qs_param = first_of_list


@register(
    'bang-inside-in-accepted', 'placement',
    targets=('placement.forbidden-aggregates.syntax-errors',),
    rule="'!' inside the in: prefix (in:A,!B) is a 400")
def bang_inside_in_accepted():
    from placement import util
    original = util.normalize_member_of_qs_param

    def lenient(value):
        if value.startswith('in:') and '!' in value:
            parts = value[3:].split(',')
            required = set(p for p in parts if not p.startswith('!'))
            forbidden = set(p[1:] for p in parts if p.startswith('!'))
            for agg in required | forbidden:
                original(agg)  # still reject what is not a UUID
            return required, forbidden
        return original(value)

    util.normalize_member_of_qs_param = lenient


@register(
    'no-microversion-gate', 'placement',
    targets=('placement.forbidden-aggregates.microversion-gate',),
    rule="'!' in member_of is only accepted from microversion 1.32")
def no_microversion_gate():
    from placement import microversion
    from placement import util
    original = util.normalize_member_of_qs_params
    key = microversion.MICROVERSION_ENVIRON

    class AlwaysForbiddenCapable(object):
        def __init__(self, real):
            self.real = real

        def matches(self, min_version=None, max_version=None):
            if min_version == (1, 32):
                return True
            return self.real.matches(min_version, max_version)

    def ungated(req, suffix=''):
        real = req.environ[key]
        req.environ[key] = AlwaysForbiddenCapable(real)
        try:
            return original(req, suffix)
        finally:
            req.environ[key] = real

    util.normalize_member_of_qs_params = ungated


@register(
    'rp-list-spans', 'placement',
    targets=('placement.forbidden-aggregates.resource-providers-direct',),
    rule='GET /resource_providers excludes only providers directly in the '
         'forbidden aggregate')
def rp_list_spans():
    import sqlalchemy as sa

    from placement.objects import research_context as res_ctx
    from placement.objects import resource_provider as rp_obj
    _mark_forbidden_sets()
    listing = threading.local()
    original_list = rp_obj._get_all_by_filters_from_db
    original_match = res_ctx.provider_ids_matching_aggregates

    def list_marked(context, filters):
        listing.active = True
        try:
            return original_list(context, filters)
        finally:
            listing.active = False

    def whole_trees(context, member_of, rp_ids=None):
        found = original_match(context, member_of, rp_ids)
        if (getattr(listing, 'active', False) and found and member_of
                and isinstance(member_of[0], _ForbiddenAggs)):
            tbl = rp_obj._RP_TBL
            sel = sa.select(tbl.c.id).where(
                tbl.c.root_provider_id.in_(found))
            found |= set(r[0] for r in context.session.execute(sel))
        return found

    rp_obj._get_all_by_filters_from_db = list_marked
    res_ctx.provider_ids_matching_aggregates = whole_trees


@register(
    'absent-forbidden-aggregate-refused', 'placement',
    targets=('placement.forbidden-aggregates.absent-aggregate',),
    rule='a forbidden aggregate that no provider is in forbids nothing '
         '(200, nothing filtered)')
def absent_forbidden_aggregate_refused():
    import webob

    from placement.objects import research_context as res_ctx
    from placement import util

    original = util.normalize_member_of_qs_params

    def refusing_unknown(req, suffix=''):
        required, forbidden = original(req, suffix)
        context = req.environ['placement.context']
        for agg in forbidden:
            if not res_ctx.provider_ids_matching_aggregates(context, [[agg]]):
                raise webob.exc.HTTPBadRequest(
                    'forbidden aggregate %s has no provider' % agg)
        return required, forbidden

    util.normalize_member_of_qs_params = refusing_unknown
