"""The clean run's wall time: `conformance run --seed N` for each seed
(each starts and stops its own cloud, as a user's run does), then one
`conformance run` of every seed together (the figure of the 60 s
target). Each run's subunit is kept: gabbi_cost reads seed 003's."""

import os

from conformance_tests.bench import children
from conformance_tests.bench import subunit_times


def seeds():
    from conformance_tests.report import guidelines
    return sorted({guidelines.seed_number(c) for c in guidelines.load_all()})


def one_run(workdir, port_base, seed=None):
    name = 'run-seed-%s' % seed if seed else 'run-all'
    run_dir = os.path.join(workdir, name)
    args = ['run', '--workdir', run_dir, '--port-base', str(port_base)]
    if seed:
        args += ['--seed', seed]
    code, seconds = children.conformance(
        args, os.path.join(workdir, '%s.log' % name))
    subunit = os.path.join(run_dir, 'results.subunit')
    times = (subunit_times.read_file(subunit)
             if os.path.exists(subunit) else {})
    return {'seed': seed or 'all', 'wall_s': round(seconds, 1),
            'exit_code': code, 'tests': len(times),
            'tests_span_s': round(subunit_times.span(times), 1),
            'subunit': subunit, 'log': os.path.join(workdir, '%s.log' % name)}
