"""Class skips that come from config; each message names what to set.

Tempest's way: a test class checks config in ``skip_checks`` and raises
``cls.skipException`` with the reason, never skips on an error it
caught. The functions here take the conf explicitly (the self-tests
pass their own).
"""


def unavailable(conf, service, to_run):
    """Why tests that need ``service`` cannot run, or None.

    ``to_run`` ends the message: "... = true to run <to_run>".
    """
    if getattr(conf.service_available, service):
        return None
    return ('%s is not available: set [service_available] %s = true to '
            'run %s' % (service, service, to_run))


def skip_if(cls, reason):
    """Raise ``cls.skipException(reason)`` unless there is no reason."""
    if reason:
        raise cls.skipException(reason)


def require_service(cls, conf, service, to_run):
    """Skip ``cls`` unless [service_available] ``service`` is true."""
    skip_if(cls, unavailable(conf, service, to_run))
