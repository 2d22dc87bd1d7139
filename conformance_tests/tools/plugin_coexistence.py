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

"""Proof that this plugin shares a Tempest with the services' own plugins.

    python -m conformance_tests.tools.plugin_coexistence [--require NAME]

Loads every Tempest plugin installed in this virtualenv (the
``tempest.test_plugins`` entry points, as Tempest's plugin manager does)
and registers their options on a fresh oslo.config ConfigOpts that holds
Tempest's own, twice: this plugin first, then this plugin last. Tempest's
manager logs a plugin's failed registration and goes on, so a clash
(oslo.config's DuplicateOptError for one option defined twice with another
default or help) shows up only later, as options missing from whichever
plugin loaded second; here it is an error. After each order every option
each plugin lists (get_opt_lists) must be registered, and every
[service_available] flag must have the same default in both orders (a
default that depends on load order is a cloud's tests enabled by chance).

--require names a plugin (its entry point name) that must be installed,
so that a virtualenv that lost one proves nothing silently. Prints one
line per order and exits 0 only when both hold.
"""

import argparse
import importlib.metadata
import sys

OURS = 'conformance_tests'
ENTRY_POINTS = 'tempest.test_plugins'


class CoexistenceError(Exception):
    pass


def installed_plugins():
    """[(entry point name, plugin instance)] of this virtualenv."""
    found = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
        try:
            found.append((entry.name, entry.load()()))
        except Exception as e:  # an unloadable plugin breaks Tempest too
            raise CoexistenceError('plugin %s (%s) does not load: %s: %s' % (
                entry.name, entry.value, type(e).__name__, e))
    return sorted(found, key=lambda pair: pair[0])


def orders(plugins):
    """The two load orders that matter: ours first, ours last."""
    ours = [p for p in plugins if p[0] == OURS]
    others = [p for p in plugins if p[0] != OURS]
    return {'%s first' % OURS: ours + others,
            '%s last' % OURS: others + ours}


def _isolated_conf():
    """A ConfigOpts whose groups share nothing with another's.

    oslo.config keeps a shallow copy of each OptGroup it registers, whose
    dict of options is the module-level group's own (Tempest's
    service_available_group, a plugin's groups): every ConfigOpts of one
    process would see the options registered on any other, and the
    second order would inherit the first's. A fresh dict per group keeps
    each order to what it registered itself."""
    import copy

    from oslo_config import cfg

    class IsolatedConfigOpts(cfg.ConfigOpts):
        def register_group(self, group):
            if group.name in self._groups:
                return
            fresh = copy.copy(group)
            fresh._opts = {}
            fresh._argparse_group = None
            fresh._driver_opts = {}
            self._groups[group.name] = fresh

    return IsolatedConfigOpts()


def register(plugins):
    """A ConfigOpts with Tempest's options and then each plugin's, in
    order; CoexistenceError names the plugin whose registration failed."""
    from tempest import config as tempest_config
    conf = _isolated_conf()
    for group, options in tempest_config._opts:
        tempest_config.register_opt_group(conf, group, options)
    for name, plugin in plugins:
        try:
            plugin.register_opts(conf)
        except Exception as e:
            raise CoexistenceError('%s: registering its options failed: '
                                   '%s: %s' % (name, type(e).__name__, e))
    return conf


def missing_options(conf, plugins):
    """'plugin: [group] option' for each listed option not registered.
    ``conf`` is parsed (no files, no arguments), so a value read is the
    option's default and an unregistered one raises NoSuchOptError."""
    from oslo_config import cfg
    missing = []
    for name, plugin in plugins:
        for group, options in plugin.get_opt_lists():
            for opt in options:
                try:
                    section = (getattr(conf, group.replace('-', '_'))
                               if group else conf)
                    getattr(section, opt.dest)
                except (cfg.NoSuchOptError, cfg.NoSuchGroupError):
                    missing.append('%s: [%s] %s' % (name, group, opt.name))
    return missing


def flag_defaults(conf, plugins):
    """{[service_available] flag: its value with no tempest.conf} of
    every flag the plugins list."""
    names = {opt.dest for _, plugin in plugins
             for group, options in plugin.get_opt_lists()
             if group == 'service_available' for opt in options}
    return {n: getattr(conf.service_available, n) for n in sorted(names)}


def prove(plugins, required=()):
    """One line per order; CoexistenceError at the first failure."""
    names = [name for name, _ in plugins]
    absent = [r for r in required if r not in names]
    if absent or OURS not in names:
        raise CoexistenceError('not installed here: %s (installed: %s)' % (
            ', '.join(absent or [OURS]), ', '.join(names) or 'none'))
    lines = []
    defaults = {}
    for label, ordered in orders(plugins).items():
        conf = register(ordered)
        conf(args=[], default_config_files=[], default_config_dirs=[])
        missing = missing_options(conf, ordered)
        if missing:
            raise CoexistenceError('%s: options not registered: %s' % (
                label, '; '.join(missing)))
        defaults[label] = flag_defaults(conf, ordered)
        lines.append('%s: %d plugins, every listed option registered (%s)'
                     % (label, len(ordered), ', '.join(
                         name for name, _ in ordered)))
    first, last = defaults.values()
    differ = sorted(k for k in set(first) | set(last)
                    if first.get(k) != last.get(k))
    if differ:
        raise CoexistenceError(
            '[service_available] defaults depend on load order: %s' % (
                ', '.join('%s (%s / %s)' % (k, first.get(k), last.get(k))
                          for k in differ)))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.plugin_coexistence',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--require', action='append', default=[],
                        metavar='NAME',
                        help='a plugin entry point that must be installed '
                             '(repeatable)')
    args = parser.parse_args(argv)
    try:
        for line in prove(installed_plugins(), args.require):
            print(line)
    except CoexistenceError as e:
        print('plugin coexistence: FAIL: %s' % e, file=sys.stderr)
        return 1
    print('plugin coexistence: PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
