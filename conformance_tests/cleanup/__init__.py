"""Remove what an interrupted run left behind, and nothing else.

A run's tests remove what they create, also when they fail; a run that is
killed cannot. `conformance cleanup` finds the run's leftovers by name
(names.py says which names a run gives) and removes them in dependency
order (plan.py): the cell back first, then servers (waiting until they are
gone), server groups, flavors, aggregates, quota changes, users, projects,
and placement's providers, resource classes and traits. One module per
service says how to find and remove each kind.
"""
