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

"""The cell a disruptive test takes down, brought back through the
suite's fault interface (common/faults.py), before anything else: a
server in a down cell can be neither listed nor deleted."""

from conformance_tests.cleanup import kinds


class Cells(kinds.Kind):
    singular, plural = 'cell', 'cells'
    is_fault = True

    def find(self, ctx):
        # Whether it is down cannot be asked through the interface;
        # bringing up a cell that is up does nothing.
        if ctx.fault and ctx.cell:
            return [kinds.Item(ctx.cell, '%s (to bring up)' % ctx.cell,
                               None)]
        return []

    def remove_one(self, ctx, item):
        ctx.fault.cell_up(item.id)

    def failed(self, item, error, doing='bring up'):
        return 'could not bring up cell %s: %s' % (item.id,
                                                   kinds.one_line(error))
