"""The clean run's wall time: `conformance run --seed N` for each seed
(each starts and stops its own cloud, as a user's run does), then one
run of the three seeds the 60 s clean-run target is set for, then one of
every seed. Each run's subunit is kept: gabbi_cost reads seed 003's."""

import os

from conformance_tests.bench import children
from conformance_tests.bench import subunit_times


def seeds():
    from conformance_tests.report import guidelines
    return sorted({guidelines.seed_number(c) for c in guidelines.load_all()})


# The seeds the 60 s clean-run target is judged on (the three without a
# senlin or blazar scenario).
TARGET_SEEDS = ('000', '001', '003')


def run_key(seeds):
    """'003', '000+001+003', or 'all' for no --seed."""
    return '+'.join(seeds) if seeds else 'all'


def one_run(workdir, port_base, seeds=()):
    key = run_key(seeds)
    name = 'run-seed-%s' % key if seeds else 'run-all'
    run_dir = os.path.join(workdir, name)
    args = ['run', '--workdir', run_dir, '--port-base', str(port_base)]
    for seed in seeds:
        args += ['--seed', seed]
    code, seconds = children.conformance(
        args, os.path.join(workdir, '%s.log' % name))
    subunit = os.path.join(run_dir, 'results.subunit')
    times = (subunit_times.read_file(subunit)
             if os.path.exists(subunit) else {})
    return {'seed': key, 'wall_s': round(seconds, 1),
            'exit_code': code, 'tests': len(times),
            'tests_span_s': round(subunit_times.span(times), 1),
            'classes': subunit_times.class_spans(times),
            'subunit': subunit, 'log': os.path.join(workdir, '%s.log' % name)}
