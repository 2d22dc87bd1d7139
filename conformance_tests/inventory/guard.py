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

"""`--inventory`: the cloud's inventory before and after a block (a run,
or a mutant's tests), and what differs."""

import json
import os
import subprocess
import sys

from conformance_tests.common import ui
from conformance_tests.inventory import listing


class InventoryError(Exception):
    """The inventory could not be taken: one line."""


class Guard(object):
    """With ``wanted``, the inventory of the cloud of ``workspace``'s
    tempest.conf before and after the block, kept in ``workdir``
    (inventory-before.json, inventory-after.json); ``differences`` is
    None without it, else {kind: {'added', 'removed'}} (empty: as
    before). Taken in a process of its own: the listing loads Tempest's
    configuration from that tempest.conf, which is global. ``forker``
    (inventory/forker.py): that process is a fork of a warm one, which
    has already imported what a listing needs (a mutant run's)."""

    def __init__(self, wanted, workspace, workdir, say=ui.say, forker=None):
        self.wanted = wanted
        self.conf = os.path.join(workspace, 'etc', 'tempest.conf')
        self.path = os.path.join(workdir, 'inventory-%s.json')
        self.say = say
        self.forker = forker
        self.differences = None

    def _take(self, when):
        path = self.path % when
        if self.forker is not None:
            errors_path = path + '.errors'
            code = self.forker.take(self.conf, path, errors_path)
            with open(errors_path) as f:
                errors = f.read()
        else:
            done = subprocess.run(
                [sys.executable, '-m', 'conformance_tests.inventory.listing',
                 self.conf, path], capture_output=True, text=True,
                stdin=subprocess.DEVNULL)
            code, errors = done.returncode, done.stderr
        if code:
            raise InventoryError((errors.strip().splitlines() or [
                'inventory exited %d' % code])[-1])
        with open(path) as f:
            return json.load(f)

    def __enter__(self):
        if self.wanted:
            self.before = self._take('before')
            self.say('inventory before the run: %d objects of %d kinds' % (
                sum(len(v) for v in self.before.values()), len(self.before)))
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.wanted and exc_type is None:
            self.differences = listing.differences(
                self.before, self._take('after'))
            self.say('inventory after the run: %s' % (
                'as before' if not self.differences else ', '.join(
                    '%s +%d -%d' % (kind, len(d['added']), len(d['removed']))
                    for kind, d in self.differences.items())))
