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

"""One runner for the client CLIs the suite drives: `openstack` and the
plugins it loads (python-senlinclient, python-blazarclient).

Credentials reach the command through OS_* environment variables, never
its command line. A command that fails is a test failure naming the
command line, its exit status and the end of its stderr; the user's
password, should a client print it, shows as ``***`` there, and so does
the argument of any password or token option.

The functions take Tempest's conf explicitly (the self-tests pass their
own) and import nothing of Tempest's config.
"""

import json
import os
import shutil
import subprocess
import sys

from tempest.lib import exceptions as lib_exc

# How long a command may take: a command is several requests (a token,
# the catalog, the call) and a senlin action waits on nova's builds, so
# the bound is Tempest's for a wait, not one request's http_timeout.
TIMEOUT_OPTION = '[compute] build_timeout'
REDACTED = '***'
# Options whose next argument (or ``=value``) is a secret.
SECRET_OPTIONS = ('--os-password', '--os-token', '--password', '--token',
                  '--os-application-credential-secret')


def timeout_message(shown, seconds):
    return '`%s` did not end within %s s (%s)' % (shown, seconds,
                                                  TIMEOUT_OPTION)


class CommandFailed(AssertionError):
    """A command exited non-zero or printed no JSON: the test fails."""


class CommandTimeout(Exception):
    """A command did not end in time: an error of the run, not a
    verdict on the cloud (so not an AssertionError, as Tempest's
    TimeoutException is)."""


def command(conf):
    """The `openstack` command to run, or None: [conformance]
    openstack_cli if set (and executable), else the one installed beside
    this Python (Tempest's virtualenv), else the one on PATH."""
    configured = conf.conformance.openstack_cli
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    beside = os.path.join(os.path.dirname(sys.executable), 'openstack')
    return beside if os.access(beside, os.X_OK) else shutil.which(
        'openstack')


def skip_reason(conf, plugin=None):
    """Why the CLI tests cannot run (no command), or None. ``plugin`` is
    the client package the test also needs (python-senlinclient...)."""
    if command(conf):
        return None
    return ('no `openstack` command: install python-openstackclient%s or '
            'set [conformance] openstack_cli to its path' % (
                ' and %s' % plugin if plugin else ''))


def environment(conf, credentials, region, interface, **extra):
    """This process's environment without its own OS_* variables, plus
    the user's credentials, the region and interface, and ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env.update({
        'OS_AUTH_URL': conf.identity.uri_v3,
        'OS_IDENTITY_API_VERSION': '3',
        'OS_USERNAME': credentials.username,
        'OS_PASSWORD': credentials.password,
        'OS_PROJECT_NAME': credentials.project_name,
        'OS_USER_DOMAIN_NAME': credentials.user_domain_name or 'Default',
        'OS_PROJECT_DOMAIN_NAME': (credentials.project_domain_name
                                   or 'Default'),
        'OS_REGION_NAME': region,
        'OS_INTERFACE': interface,
    })
    if conf.identity.disable_ssl_certificate_validation:
        env['OS_INSECURE'] = 'true'
        # the nova shell reads its own variable, not OS_INSECURE
        env['NOVACLIENT_INSECURE'] = 'true'
    elif conf.identity.ca_certificates_file:
        # A cloud with a private CA: the same trust Tempest's clients use.
        env['OS_CACERT'] = conf.identity.ca_certificates_file
    env.update(extra)
    return env


def redact_argv(args):
    """The arguments with every secret option's value replaced."""
    shown, hide_next = [], False
    for arg in args:
        if hide_next:
            shown.append(REDACTED)
            hide_next = False
        elif arg in SECRET_OPTIONS:
            shown.append(arg)
            hide_next = True
        elif arg.split('=', 1)[0] in SECRET_OPTIONS and '=' in arg:
            shown.append('%s=%s' % (arg.split('=', 1)[0], REDACTED))
        else:
            shown.append(arg)
    return shown


def parse_json(text):
    """The JSON document a command printed. Some clients print a line of
    their own before it (blazarclient: "Created a new lease:"), so the
    document may start on a later line. Raises ValueError."""
    try:
        return json.loads(text)
    except ValueError:
        lines = text.splitlines(True)
        for i, line in enumerate(lines):
            if i and line.startswith(('{', '[')):
                return json.loads(''.join(lines[i:]))
        raise


class Result(object):
    """What one command did: ``returncode``, ``stdout``, ``stderr``."""

    def __init__(self, runner, shown, returncode, stdout, stderr):
        self.runner = runner
        self.shown = shown
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def errors(self):
        """The end of stderr, without the runner's noise lines and with
        secrets redacted."""
        text = self.stderr.strip()
        if self.runner.noise:
            text = '\n'.join(line for line in text.splitlines()
                             if not line.startswith(self.runner.noise))
        return self.runner.redact(text)[-self.runner.stderr_tail:]

    def check(self):
        """Fail unless the command exited 0; return self."""
        if self.returncode != 0:
            raise CommandFailed('%s: `%s` exited %d: %s' % (
                self.runner.rule, self.shown, self.returncode,
                self.errors()))
        return self

    def json(self):
        try:
            return parse_json(self.stdout)
        except ValueError:
            raise CommandFailed('%s: `%s` printed no JSON: %r' % (
                self.runner.rule, self.shown,
                self.runner.redact(self.stdout)[:300]))


class OpenStack(object):
    """`openstack` run as one user, its failures prefixed with ``rule``.

    ``region`` defaults to [identity] region; ``noise`` is a tuple of
    line prefixes a client prints on every call, left out of the stderr
    a failure shows; ``stderr_tail`` is how much of the rest it shows.
    """

    def __init__(self, conf, credentials, rule, region=None,
                 interface='public', timeout=None, env=None,
                 noise=(), stderr_tail=800):
        self.conf = conf
        self.rule = rule
        self.timeout = conf.compute.build_timeout if timeout is None \
            else timeout
        self.noise = tuple(noise)
        self.stderr_tail = stderr_tail
        self.secrets = [s for s in (credentials.password,) if s]
        self.env = environment(
            conf, credentials, region or conf.identity.region, interface,
            **(env or {}))

    def redact(self, text):
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def shown(self, args):
        return self.redact(' '.join(['openstack'] + redact_argv(args)))

    def run(self, *args, check=True):
        """Run `openstack ARGS`; fail if it exits non-zero and ``check``.

        Raises CommandTimeout when it takes longer than the runner's
        timeout.
        """
        path = command(self.conf)
        if not path:
            raise lib_exc.InvalidConfiguration(skip_reason(self.conf))
        shown = self.shown(args)
        try:
            done = subprocess.run([path] + list(args), env=self.env,
                                  capture_output=True, text=True,
                                  timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise CommandTimeout(timeout_message(shown, self.timeout))
        result = Result(self, shown, done.returncode, done.stdout,
                        done.stderr)
        return result.check() if check else result

    def json(self, *args):
        """Run `openstack ARGS -f json`, which must exit 0; its JSON."""
        return self.run(*(args + ('-f', 'json'))).json()
