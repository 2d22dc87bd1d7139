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

"""What every kind of leftover offers the plan: find it, remove it."""

import collections

from tempest.lib.common.utils import test_utils

Item = collections.namedtuple('Item', 'id label data')


class Kind(object):
    """One kind of leftover in one service.

    ``find(ctx)`` lists the run's leftovers of this kind (never anything
    else); ``remove(ctx, items)`` removes them and returns one-line
    errors, one per item it could not remove. Something already gone is
    not an error.
    """
    singular = plural = ''
    #: Whether "removing" it brings a faulted part of the cloud back (the
    #: summary says so apart from the count of what was removed).
    is_fault = False

    def find(self, ctx):
        raise NotImplementedError

    def remove(self, ctx, items):
        return self.remove_each(ctx, items)[1]

    def remove_each(self, ctx, items):
        """(items removed or already gone, one-line errors)."""
        done, errors = [], []
        for item in items:
            try:
                test_utils.call_and_ignore_notfound_exc(
                    self.remove_one, ctx, item)
            except Exception as e:
                errors.append(self.failed(item, e))
            else:
                done.append(item)
        return done, errors

    def remove_one(self, ctx, item):
        raise NotImplementedError

    def failed(self, item, error, doing='remove'):
        return 'could not %s %s %s: %s' % (doing, self.singular, item.label,
                                           one_line(error))

    def count(self, n):
        return '%d %s' % (n, self.singular if n == 1 else self.plural)


def one_line(error):
    """An API error as one short line (Tempest's carry the whole body)."""
    text = ' '.join(str(error).split())
    return (text or type(error).__name__)[:240]


def cached(ctx, key, compute):
    """Listings several kinds need (the run's projects and users)."""
    if key not in ctx.cache:
        ctx.cache[key] = compute()
    return ctx.cache[key]
