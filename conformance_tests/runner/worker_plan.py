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

"""Which Tempest worker runs which test classes: a stestr worker file.

Why a worker file: stestr's scheduler balances workers by the durations
its repository recorded in earlier runs, and deals the classes it has no
time for out in turn, whatever their size; a clean run's workspace has
none. For the 25 tests of seeds 000, 001 and 003 that puts the 40 s class
of server spreading and 10 s more on one worker, while the other idles
for its last 27 s.

Here the same scheduler (stestr.scheduler.partition_tests: heaviest
class first, each to the lightest worker) is given a time for every
test: the seconds stestr recorded for it in this workspace's earlier
runs; for a test never run there, its seconds in REFERENCE_SECONDS (a
clean run of every seed on the embedded cloud, by idempotent id, written
by `python -m conformance_tests.tools.reference_seconds`); for a test
in neither, what it declares: SLOW_SECONDS with Tempest's ``slow``
attribute (it boots servers or clusters, or drives a client CLI), one
second without. Measured times come first because the clustering tests
take longer than their tags say: in a clean run of every seed in a new
workspace the estimate alone dealt one worker 67 s of tests and the
other 103 s, which then ran its 36 s class of server spreading alone.

The classes that hold blazar's preemptible hosts take them one at a time
(services/reservation/v1/enrolment.py's lock), so they are dealt as one
unit, to one worker: apart, one worker would sit on the lock while the
other ran them.

The @serial classes get a worker of their own. Tempest keeps each of
them alone with its reader-writer lock: that worker waits, without
holding up any other, until no class of the others is running, and
runs its classes then. A class is always on one worker, as stestr's
group_regex keeps it: its class-level set-up runs once.
"""

import json
import os
import re

from stestr.repository import abstract
from stestr.repository import util
from stestr import scheduler
import yaml

from conformance_tests.report import results

# A slow test of this suite takes 3 to 17 s on the embedded cloud, any
# other test 0.2 to 2 s.
SLOW_SECONDS = 7
WORKER_FILE = 'workers.yaml'
# The scheduling unit of the classes dealt together (no class's name).
TOGETHER = ' together'
REFERENCE_SECONDS = os.path.join(os.path.dirname(__file__),
                                 'reference_seconds.json')


def class_of(test_name):
    """'pkg.module.Class' of 'pkg.module.Class.test_x[id-...,...]'."""
    return test_name.split('[', 1)[0].rsplit('.', 1)[0]


def estimate(test_name):
    return SLOW_SECONDS if 'slow' in results.attributes(test_name) else 1


def recorded_times(workspace, test_names):
    """{test: seconds} of these tests as stestr recorded them in the
    workspace's earlier runs; {} before its first run."""
    try:
        repo = util.get_repo_open(repo_url=workspace)
        return repo.get_test_times(test_names)['known']
    except (abstract.RepositoryNotFound, OSError):  # stestr's dbm.dumb
        return {}


def reference_times(test_names, path=REFERENCE_SECONDS):
    """{test: seconds} of these tests in the reference run; a test whose
    idempotent id it lacks (new since) is left to its estimate."""
    try:
        with open(path) as f:
            by_id = json.load(f)['seconds']
    except (OSError, ValueError, KeyError):
        return {}
    found = {}
    for name in test_names:
        seconds = by_id.get(results.idempotent_id(name))
        if seconds is not None:
            found[name] = seconds
    return found


def known_times(workspace, test_names):
    """Each test's seconds as recorded in the workspace, else as in the
    reference run (tests in neither are left to their estimate)."""
    known = reference_times(test_names)
    known.update(recorded_times(workspace, test_names))
    return known


class _KnownTimes(object):
    """What stestr's scheduler asks a repository for: every test timed,
    by its recorded seconds or else by its estimate."""

    def __init__(self, recorded):
        self.recorded = recorded

    def get_test_times(self, test_ids):
        return {'known': {t: self.recorded.get(t, estimate(t))
                          for t in test_ids}, 'unknown': set()}


def shared_workers(test_names, concurrency, recorded=None, together=()):
    """The classes of these tests in at most ``concurrency`` lists of
    about the same seconds. stestr's own scheduler deals them (heaviest
    class first, each to the lightest worker), given a time for every
    test; the names go in sorted, so the plan is reproducible. The
    classes in ``together`` are dealt as one: they take a lock one at a
    time, and apart a worker would wait on it with nothing to do."""
    together = frozenset(together)

    def unit_of(test_name):
        cls = class_of(test_name)
        return TOGETHER if cls in together else cls
    partitions = scheduler.partition_tests(
        sorted(test_names), max(1, concurrency),
        _KnownTimes(recorded or {}), unit_of)
    workers = []
    for tests in partitions:
        classes = list(dict.fromkeys(class_of(t) for t in tests))
        if classes:
            workers.append(classes)
    return workers


def plan(test_names, serial, concurrency, recorded=None, together=()):
    """Lists of classes, one per worker: the shared classes balanced
    over ``concurrency`` workers (those in ``together`` on one), then
    all the @serial ones on one."""
    shared = [t for t in test_names if class_of(t) not in serial]
    workers = shared_workers(shared, concurrency, recorded, together)
    serial_here = sorted({class_of(t) for t in test_names} & set(serial))
    if serial_here:
        workers.append(serial_here)
    return workers


def class_regex(cls):
    """Exactly the tests of this class (not of a class whose name it
    begins)."""
    return '^%s\\.[^.[]+(\\[|$)' % re.escape(cls)


def write(workspace, workers):
    """The stestr worker file for this plan; its path."""
    path = os.path.join(workspace, WORKER_FILE)
    with open(path, 'w') as f:
        yaml.safe_dump([{'worker': [class_regex(c) for c in classes]}
                        for classes in workers], f, default_flow_style=False)
    return path
