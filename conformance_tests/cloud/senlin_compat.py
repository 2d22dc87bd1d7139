"""Shims that let senlin 16 (2023, retired) run on today's libraries.

Each shim is the smallest change that removes one incompatibility, with
the reason beside it. None touches the affinity policy, its profile type
or anything the seed checks: they are start-up and library glue only.
``apply()`` runs in senlin's process before senlin is imported.
"""

SHIMS = []


def shim(func):
    SHIMS.append(func)
    return func


def apply():
    for func in SHIMS:
        func()
