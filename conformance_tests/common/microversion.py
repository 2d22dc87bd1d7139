"""Microversion ranges: parsing, comparison and config-driven skips."""


def parse(version):
    """'1.32' -> (1, 32); 'latest' -> (inf, inf)."""
    if version in (None, ''):
        return None
    if str(version).strip().lower() == 'latest':
        return (float('inf'), float('inf'))
    try:
        major, minor = str(version).strip().split('.')
        return (int(major), int(minor))
    except ValueError:
        raise ValueError('%r is not a microversion of the form X.Y' % (
            version,))


def skip_reason(service, needed_min, needed_max, conf_min, conf_max):
    """Why a test needing [needed_min, needed_max] cannot run, or None.

    The cloud's range comes from tempest.conf ([<service>]
    min_microversion / max_microversion); unset bounds are open.
    """
    lo, hi = parse(needed_min), parse(needed_max or needed_min)
    cmin, cmax = parse(conf_min), parse(conf_max)
    if cmax is None and cmin is None:
        return None
    if cmin is not None and lo is not None and lo < cmin:
        return ('needs %s microversion %s but [%s] min_microversion is %s; '
                'lower min_microversion to %s if the cloud supports it' % (
                    service, needed_min, service, conf_min, needed_min))
    if cmax is not None and hi is not None and hi > cmax:
        return ('needs %s microversion %s but [%s] max_microversion is %s; '
                'raise max_microversion to %s if the cloud supports it' % (
                    service, needed_max or needed_min, service, conf_max,
                    needed_max or needed_min))
    return None


def compute_skip_reason(conf, needed_min, needed_max=None):
    """Why a compute test cannot run on this cloud, from config, or None."""
    if not conf.service_available.nova:
        return ('nova is not available: set [service_available] nova = '
                'true to run the compute conformance tests')
    return skip_reason('compute', needed_min, needed_max or needed_min,
                       conf.compute.min_microversion,
                       conf.compute.max_microversion)
