"""Which Tempest worker runs which test classes: a stestr worker file.

Why not stestr's own partition: it balances workers by the durations
its repository recorded in earlier runs, and a clean run's workspace has
none, so it deals the classes out in turn whatever their size. The 25
tests of seeds 000, 001 and 003 then put the 40 s class of server
spreading and 10 s more on one worker while the other idled its last
27 s (fresh-31's bench).

Here each class weighs the seconds its tests took in this workspace's
earlier runs, which stestr records, and, for a test never run there,
what it declares: a test with Tempest's ``slow`` attribute (it boots
servers or clusters, or drives a client CLI) counts SLOW_SECONDS, any
other one second. The estimate alone dealt the every-seed run 70 s and
98 s of tests (fresh-38): the clustering tests take longer than their
tags say. The classes are dealt heaviest first, each to the lightest
worker (longest processing time first), ties by name.

The @serial classes get a worker of their own. Tempest keeps each of
them alone with its reader-writer lock: that worker waits, without
holding up any other, until no class of the others is running, and
runs its classes then. A class is always on one worker, as stestr's
group_regex keeps it: its class-level set-up runs once.
"""

import os
import re

from stestr.repository import abstract
from stestr.repository import util
import yaml

# A slow test of this suite took 3 to 17 s on the embedded cloud, any
# other test 0.2 to 2 s (fresh-31's bench).
SLOW_SECONDS = 7
WORKER_FILE = 'workers.yaml'


def class_of(test_name):
    """'pkg.module.Class' of 'pkg.module.Class.test_x[id-...,...]'."""
    return test_name.split('[', 1)[0].rsplit('.', 1)[0]


def attributes(test_name):
    """The attributes Tempest lists after the idempotent id."""
    if '[' not in test_name:
        return set()
    return set(test_name.rsplit('[', 1)[1].rstrip(']').split(','))


def estimate(test_name):
    return SLOW_SECONDS if 'slow' in attributes(test_name) else 1


def recorded_times(workspace, test_names):
    """{test: seconds} of these tests as stestr recorded them in the
    workspace's earlier runs; {} before its first run."""
    try:
        repo = util.get_repo_open(repo_url=workspace)
        return repo.get_test_times(test_names)['known']
    except (abstract.RepositoryNotFound, OSError):  # stestr's dbm.dumb
        return {}


def shared_workers(test_names, concurrency, recorded=None):
    """The classes of these tests in at most ``concurrency`` lists of
    about the same seconds: heaviest class first, each to the lightest
    list so far; ties go by name, so the plan is reproducible."""
    recorded = recorded or {}
    weights = {}
    for name in test_names:
        cls = class_of(name)
        seconds = recorded.get(name)
        weights[cls] = weights.get(cls, 0) + (
            seconds if seconds is not None else estimate(name))
    workers = [[0, []] for _ in range(max(1, concurrency))]
    for cls in sorted(weights, key=lambda c: (-weights[c], c)):
        lightest = min(workers, key=lambda w: (w[0], len(w[1])))
        lightest[0] += weights[cls]
        lightest[1].append(cls)
    return [classes for _, classes in workers if classes]


def plan(test_names, serial, concurrency, recorded=None):
    """Lists of classes, one per worker: the shared classes balanced
    over ``concurrency`` workers, then all the @serial ones on one."""
    shared = [t for t in test_names if class_of(t) not in serial]
    workers = shared_workers(shared, concurrency, recorded)
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
