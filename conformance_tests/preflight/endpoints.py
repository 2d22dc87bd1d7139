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

"""Which APIs a run needs, and where the token's catalog puts them.

The APIs are the registry's (services.all()) and the two services of
Tempest's own that the suite's compute tests need (an image to boot, a
network service in the catalog). Each says how its clients look it up
(Api.catalog) and which [service_available] flag enables it
(Api.available_flag); nothing here names a tested API.
"""

from conformance_tests import services
from conformance_tests.services import api as api_mod


class _TempestService(api_mod.Api):
    """A service Tempest needs for the suite's tests: its flag (default
    true), group and catalog type are Tempest's."""

    def __init__(self, flag, group, catalog_type):
        self.tempest_flag = (flag, True)
        self.config_group = group
        self.catalog_type = catalog_type

    def __repr__(self):
        return '<tempest service %s>' % self.catalog_type


TEMPEST_SERVICES = (
    _TempestService('glance', 'image', 'image'),
    _TempestService('neutron', 'network', 'network'),
)


class CatalogError(Exception):
    """One line: the option to fix and why."""


def apis():
    """Every API whose endpoint a run looks up in the catalog."""
    return [a for a in list(services.all()) + list(TEMPEST_SERVICES)
            if a.catalog_type]


def enabled(conf, api):
    """(enabled, the flag as text) for ``api``; the text is None when
    nothing can disable it."""
    flag = api.available_flag()
    if flag is None:
        return True, None
    name, default = flag
    value = conf.flag('service_available', name, default)
    text = '[service_available] %s = %s' % (name, str(value).lower())
    if conf.get('service_available', name) in (None, ''):
        text += ' (default)'
    return value, text


def where(lookup):
    return '(interface %s, region %s)' % (lookup.interface, lookup.region)


def subject(lookup, flag_text):
    """How a message about this endpoint starts: the option that made
    preflight look for it."""
    if lookup.type_option:
        return '%s %s:' % (lookup.type_option, lookup.service_type)
    if flag_text:
        return flag_text + ' but'
    return '%s %s:' % (lookup.interface_option or '[identity] region',
                       lookup.interface if lookup.interface_option
                       else lookup.region)


def region_of(endpoint):
    return endpoint.get('region_id') or endpoint.get('region')


def find(catalog, lookup, flag_text):
    """The catalog endpoint Tempest's clients would use, held to the
    configured interface and region (Tempest falls back to any other;
    preflight says so instead)."""
    entries = [s for s in catalog if s.get('type') == lookup.service_type]
    if not entries:
        raise CatalogError('%s the catalog has no %s endpoint %s' % (
            subject(lookup, flag_text), lookup.service_type, where(lookup)))
    # Tempest takes the first service of the type.
    endpoints = [e for e in entries[0].get('endpoints') or ()
                 if isinstance(e, dict)]
    matching = [e for e in endpoints
                if e.get('interface') == lookup.interface]
    if not matching:
        have = ', '.join(sorted({str(e.get('interface')) for e in endpoints}))
        if lookup.interface_option:
            raise CatalogError(
                '%s %s: the catalog\'s %s endpoints have interface %s, not '
                '%s' % (lookup.interface_option, lookup.interface,
                        lookup.service_type, have or 'none', lookup.interface))
        raise CatalogError('%s the catalog\'s %s endpoints have interface '
                           '%s, not %s' % (subject(lookup, flag_text),
                                           lookup.service_type,
                                           have or 'none', lookup.interface))
    in_region = [e for e in matching if region_of(e) == lookup.region]
    if not in_region:
        raise CatalogError('%s %s: the catalog\'s %s endpoints (interface '
                           '%s) are in region %s' % (
                               lookup.region_option, lookup.region,
                               lookup.service_type, lookup.interface,
                               ', '.join(sorted({str(region_of(e))
                                                 for e in matching}))))
    endpoint = in_region[0]
    if not endpoint.get('url'):
        raise CatalogError('%s the catalog\'s %s endpoint %s has no URL' % (
            subject(lookup, flag_text), lookup.service_type, where(lookup)))
    return endpoint


def catalog_summary(catalog):
    """Every catalog entry: type, name, {interface: URL} per region."""
    out = []
    for entry in catalog:
        regions = {}
        for e in entry.get('endpoints') or ():
            if isinstance(e, dict):
                regions.setdefault(str(region_of(e)), {})[
                    str(e.get('interface'))] = e.get('url')
        out.append({'type': entry.get('type'), 'name': entry.get('name'),
                    'endpoints': regions})
    return out
