import os


def load_tests(loader, tests, pattern):
    """Tempest discovers the plugin from this package: give it only the
    conformance tests (api/, scenario/), never the plugin's own selftests.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(here)
    for sub in ('api', 'scenario'):
        tests.addTests(loader.discover(os.path.join(here, sub),
                                       pattern=pattern or 'test*.py',
                                       top_level_dir=top))
    return tests
