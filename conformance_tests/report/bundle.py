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

"""A certification bundle: one archive a vendor hands over, made from a
finished `conformance run`, that anyone can check without a cloud.

Members (each 0600, as is the archive: even redacted, a tempest.conf
names the cloud's endpoints and accounts):

    report.json, report.md,  the report, as the run wrote it (the page
    report.html              for people without Python, report/html.py)
    results.subunit          the run's subunit v2 stream
    selected-tests.txt       the tests the run selected (its workspace's)
    tempest.conf             that workspace's etc/tempest.conf, every
                             secret <removed> (common/secret_options.py)
    preflight.json           when the workdir has one
    guidelines/*.yaml        every capability file the report judged by
    suite.json               suite version, guidelines digest, times
    MANIFEST.sha256          `sha256sum` of every other member

Beside the archive, FILE.sha256 (`sha256sum` format) holds its sum: the
page cannot (the archive holds the page), so the page says where it is.

verify() takes no verdict on trust: it recomputes each one from the
bundle's stream and guidelines with the code the run used, so an edited
verdict fails even when the manifest was rewritten to match; and it
reads report.html back, which must say what report.json says. The
manifest gives integrity, not authenticity: whoever rewrites every
member consistently forges a bundle; only a signature would stop that.
"""

import configparser
import datetime
import hashlib
import io
import json
import os
import re
import subprocess
import tarfile
import tempfile
import zlib

import yaml

from conformance_tests.common import secret_options
from conformance_tests.report import build
from conformance_tests.report import guidelines as guidelines_mod
from conformance_tests.report import html as html_mod
from conformance_tests.report import results as results_mod

REPORT, REPORT_MD, SUBUNIT = 'report.json', 'report.md', 'results.subunit'
REPORT_HTML = html_mod.NAME
SELECTED = 'selected-tests.txt'  # tempest_runner.SELECTED
CONF, PREFLIGHT, SUITE = 'tempest.conf', 'preflight.json', 'suite.json'
MANIFEST, GUIDELINES = 'MANIFEST.sha256', 'guidelines'
REQUIRED = (REPORT, REPORT_MD, REPORT_HTML, SUBUNIT, SELECTED, CONF, SUITE)
# Beside the archive: its sum, which no member can hold.
SHA256_SUFFIX = '.sha256'
# Where `conformance run` keeps Tempest's workspace: the embedded
# cloud's, or the one made for --tempest-conf.
WORKSPACES = ('workspace', 'vendor-workspace')
DISTRIBUTION = 'openstack-conformance-tests'  # setup.cfg [metadata] name
REMOVED = '<removed>'
# A secret copied into a longer value is removed from it only from this
# length on: a shorter one would garble unrelated text.
MIN_LEAK = 6
_USERINFO = re.compile(r'(?<=://)[^/@\s]+@')  # scheme://user:password@
# Members are plain names, at most one folder deep (guidelines/x.yaml):
# nothing a hostile archive names can land outside the temp dir.
_NAME = re.compile(r'^[\w.-]+(/[\w.-]+)?$')
# A bundle is a few MB; this stops a gzip bomb filling the disk.
MAX_BYTES = 1 << 30
# What a malformed member (JSON, YAML, stream, report shape) can raise
# while verdicts are recomputed; each becomes a line, never a traceback.
_BAD_INPUT = (ValueError, KeyError, TypeError, AttributeError, OSError,
              re.error, yaml.YAMLError)


class BundleError(Exception):
    """The bundle cannot be made; one line says what to do."""


class NotABundle(Exception):
    """The file is not a bundle at all."""


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def sums(members):
    """`sha256sum`'s format ('<hex>  <name>'), in name order."""
    return ''.join('%s  %s\n' % (sha256(members[name]), name)
                   for name in sorted(members))


def guidelines_digest(members):
    """sha256 of the sums of guidelines/*: in the unpacked bundle,
    `LC_ALL=C sha256sum guidelines/* | sha256sum`."""
    return sha256(sums({n: d for n, d in members.items()
                        if n.startswith(GUIDELINES + '/')}).encode())


def _ini(text):
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # names as written
    parser.read_string(text)
    return parser


def _sections(parser):
    return [parser.default_section] + parser.sections()


def redact(text):
    """tempest.conf with every secret replaced by REMOVED: each option
    that holds one (common/secret_options.py), each other value that
    equals a secret or contains one, and a URL's user:password@. Parsed,
    not pattern-matched, so that a continuation line or an odd spacing
    cannot keep a secret."""
    parser = _ini(text)
    found = set()
    for section in _sections(parser):  # DEFAULT first: sections inherit
        for option in list(parser[section]):
            value = parser[section][option]
            if value != REMOVED and secret_options.is_secret(option, value):
                found.add(value.strip())
                parser[section][option] = REMOVED
    # Longest first: a secret that contains another goes whole.
    leaks = sorted((s for s in found if len(s) >= MIN_LEAK), key=len,
                   reverse=True)
    for section in _sections(parser):
        for option in list(parser[section]):
            value = parser[section][option]
            if value.strip() in found:
                parser[section][option] = REMOVED
                continue
            value = _USERINFO.sub(REMOVED + '@', value)
            for leak in leaks:
                value = value.replace(leak, REMOVED)
            if value != parser[section][option]:
                parser[section][option] = value
    out = io.StringIO()
    parser.write(out)
    return out.getvalue()


def unredacted(text):
    """'[section] option' of each option that still holds a secret."""
    parser = _ini(text)
    return ['[%s] %s' % (section, option)
            for section in _sections(parser) for option in parser[section]
            if parser[section][option] != REMOVED and
            secret_options.is_secret(option, parser[section][option])]


def suite_version():
    """The installed distribution's version (pbr), else `git describe`
    of this checkout, else 'unknown'."""
    try:
        import pbr.version
        return pbr.version.VersionInfo(DISTRIBUTION).release_string()
    except Exception:  # pbr raises a bare Exception when it finds none
        pass
    try:
        # Never --dirty: that refreshes the index of a shared checkout.
        done = subprocess.run(
            ['git', 'describe', '--always'], capture_output=True, text=True,
            cwd=os.path.dirname(os.path.abspath(__file__)), timeout=10)
        if done.returncode == 0 and done.stdout.strip():
            return 'git %s' % done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return 'unknown'


def _read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as e:
        raise BundleError('cannot read %s: %s' % (path, e.strerror or e))


def _workspace(workdir):
    """The workspace of the workdir's last run: the newer list wins."""
    found = [os.path.join(workdir, ws) for ws in WORKSPACES
             if os.path.isfile(os.path.join(workdir, ws, SELECTED))]
    if not found:
        raise BundleError('no %s in %s: run `conformance run` first' % (
            SELECTED, ' or '.join(os.path.join(workdir, ws)
                                  for ws in WORKSPACES)))
    return max(found, key=lambda ws: os.path.getmtime(
        os.path.join(ws, SELECTED)))


def collect(workdir, guideline_files=None, now=None):
    """{member name: bytes} of the bundle of ``workdir``'s last run."""
    members = {}
    for name in (REPORT, REPORT_MD, REPORT_HTML, SUBUNIT):
        path = os.path.join(workdir, name)
        if not os.path.isfile(path):
            raise BundleError('no %s: run `conformance run` first' % path)
        members[name] = _read(path)
    try:
        summary = json.loads(members[REPORT])['summary']
    except (ValueError, KeyError, TypeError):
        summary = None
    if not isinstance(summary, dict):
        raise BundleError('%s is not a conformance report: run `conformance '
                          'run` first' % os.path.join(workdir, REPORT))
    workspace = _workspace(workdir)
    members[SELECTED] = _read(os.path.join(workspace, SELECTED))
    conf = os.path.join(workspace, 'etc', CONF)
    try:
        members[CONF] = redact(_read(conf).decode('utf-8')).encode('utf-8')
    except (configparser.Error, UnicodeDecodeError) as e:
        raise BundleError('%s does not parse, so its secrets cannot be '
                          'removed: %s' % (conf, str(e).splitlines()[0]))
    if os.path.isfile(os.path.join(workdir, PREFLIGHT)):
        members[PREFLIGHT] = _read(os.path.join(workdir, PREFLIGHT))
    if guideline_files is None:
        guideline_files = guidelines_mod.guideline_files()
    for path in guideline_files:
        name = '%s/%s' % (GUIDELINES, os.path.basename(path))
        if name in members:
            raise BundleError('two guideline files are named %s' % name)
        members[name] = _read(path)
    if not guideline_files:
        raise BundleError('no guideline file to bundle')
    now = now or datetime.datetime.now(datetime.timezone.utc)
    members[SUITE] = json.dumps({
        'distribution': DISTRIBUTION, 'version': suite_version(),
        'guidelines_sha256': guidelines_digest(members),
        'bundled_at': now.isoformat(timespec='seconds'),
        'run_duration_s': summary.get('duration_s'),
        'target': summary.get('target'), 'profile': summary.get('profile'),
    }, indent=2, sort_keys=True).encode() + b'\n'
    members[MANIFEST] = sums(members).encode()
    return members


def _private_file(path, mode):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # the mode above applies only to a new file
    return os.fdopen(fd, mode)


def write(output, members, mtime):
    """The archive, 0600 and each member 0600 (folders 0700); written
    aside and moved in place, so a failed write never leaves half a
    bundle."""
    partial = '%s.partial-%d' % (output, os.getpid())
    folders = sorted({n.rsplit('/', 1)[0] for n in members if '/' in n})
    try:
        with _private_file(partial, 'wb') as f, tarfile.open(
                fileobj=f, mode='w:gz') as tar:
            for name in folders:  # else tar makes them with the umask
                info = tarfile.TarInfo(name)
                info.type, info.mode, info.mtime = (
                    tarfile.DIRTYPE, 0o700, int(mtime))
                tar.addfile(info)
            for name in sorted(members):
                info = tarfile.TarInfo(name)
                info.size, info.mode, info.mtime = (
                    len(members[name]), 0o600, int(mtime))
                tar.addfile(info, io.BytesIO(members[name]))
        os.replace(partial, output)
    except OSError as e:
        if os.path.exists(partial):
            os.remove(partial)
        raise BundleError('cannot write %s: %s' % (output, e.strerror or e))


def write_sum(output):
    """OUTPUT.sha256 beside the archive, as `sha256sum` writes it (the
    archive's own name, so `sha256sum -c` works in its folder); the
    sum."""
    digest = sha256(_read(output))
    path = output + SHA256_SUFFIX
    try:
        with open(path, 'w') as f:
            f.write('%s  %s\n' % (digest, os.path.basename(output)))
    except OSError as e:
        raise BundleError('cannot write %s: %s' % (path, e.strerror or e))
    return digest


def make(workdir, output=None, guideline_files=None):
    """Bundle ``workdir``'s last run and write its sum beside it;
    (archive path, member names)."""
    workdir = os.path.abspath(workdir)
    output = os.path.abspath(output or os.path.join(workdir,
                                                    'bundle.tar.gz'))
    now = datetime.datetime.now(datetime.timezone.utc)
    members = collect(workdir, guideline_files, now)
    write(output, members, now.timestamp())
    write_sum(output)
    return output, sorted(members)


def _unpack(path, into):
    """({name: bytes}, problems); each plain member is also written
    (0600) under ``into`` for the loaders that read files."""
    if not os.path.isfile(path):
        raise NotABundle('%s: no such file' % path)
    members, problems, total = {}, [], 0
    try:
        with tarfile.open(path, 'r:gz') as tar:  # as write() makes it
            for info in tar:
                name = info.name
                if info.isdir():
                    continue
                if not info.isfile() or not _NAME.match(name) or any(
                        part in ('.', '..') for part in name.split('/')):
                    problems.append('member %s: not a plain file with a '
                                    'plain name; not unpacked' % name)
                    continue
                if name in members:
                    problems.append('member %s: in the archive twice' % name)
                    continue
                total += info.size
                if total > MAX_BYTES:
                    raise NotABundle('%s unpacks to more than %d MiB: not a '
                                     'conformance bundle' % (
                                         path, MAX_BYTES >> 20))
                members[name] = tar.extractfile(info).read()
                target = os.path.join(into, name)
                os.makedirs(os.path.dirname(target), mode=0o700,
                            exist_ok=True)
                with _private_file(target, 'wb') as f:
                    f.write(members[name])
    except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
        raise NotABundle('%s is not a conformance bundle (`conformance '
                         'bundle` writes one): %s' % (
                             path, (str(e).splitlines() or [''])[0]))
    if MANIFEST not in members:
        raise NotABundle('%s is not a conformance bundle: it has no %s' % (
            path, MANIFEST))
    return members, problems


def _check_manifest(members):
    """(problems, members checked)."""
    listed, problems = {}, []
    text = members[MANIFEST].decode('utf-8', 'replace')
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r'^([0-9a-f]{64}) [ *](.+)$', line)
        if not match:
            problems.append('%s line %d is not "<sha256>  <name>"' % (
                MANIFEST, number))
            continue
        listed[match.group(2)] = match.group(1)
    for name in sorted(listed):
        if name not in members:
            problems.append('member %s: in the manifest, missing from the '
                            'bundle' % name)
        elif sha256(members[name]) != listed[name]:
            problems.append('member %s: its sha256 is not the manifest\'s' %
                            name)
    for name in sorted(set(members) - set(listed) - {MANIFEST}):
        problems.append('member %s: not in the manifest' % name)
    for name in REQUIRED:
        if name not in members and name not in listed:
            problems.append('member %s: missing (nor in the manifest)' %
                            name)
    return problems, len(listed)


def _check_suite(members):
    try:
        want = json.loads(members[SUITE])['guidelines_sha256']
    except (KeyError, TypeError, ValueError):
        return ['%s: no guidelines_sha256 to check the guidelines by' % SUITE]
    got = guidelines_digest(members)
    if want != got:
        return ['%s: guidelines sha256 %s, the bundle\'s guidelines/ give '
                '%s' % (SUITE, want, got)]
    return []


def _check_conf(members):
    if CONF not in members:
        return []
    try:
        left = unredacted(members[CONF].decode('utf-8'))
    except (configparser.Error, UnicodeDecodeError) as e:
        return ['%s: does not parse: %s' % (CONF, str(e).splitlines()[0])]
    return ['%s: %s still has a value (a secret must read %s)' % (
        CONF, option, REMOVED) for option in left]


def _word(as_expected):
    return 'as expected' if as_expected else 'not as expected'


def _compare(reported, recomputed):
    problems = []
    got = {c['id']: c for c in recomputed}
    for cap_id in sorted(set(reported) - set(got)):
        problems.append('capability %s: in report.json, not in the '
                        'bundle\'s guidelines' % cap_id)
    for cap_id in sorted(set(got) - set(reported)):
        problems.append('capability %s: in the bundle\'s guidelines, not in '
                        'report.json' % cap_id)
    for cap_id in sorted(set(got) & set(reported)):
        said, gives = reported[cap_id], got[cap_id]
        if said.get('status') != gives['status']:
            problems.append('capability %s: report says %s, the stream '
                            'gives %s' % (cap_id, said.get('status'),
                                          gives['status']))
        elif said.get('as_expected') != gives['as_expected']:
            problems.append('capability %s: report says %s, the stream '
                            'gives %s' % (cap_id, _word(said.get(
                                'as_expected')), _word(gives['as_expected'])))
    return problems


def _scope_problems(caps, reported, selected):
    """The scope is read from report.json, so marking a capability
    not-in-scope would hide it from recomputation; but the run selected
    only in-scope capabilities' tests, so a selected test that belongs
    to no in-scope capability gives such an edit away."""
    in_scope = {i for i, c in reported.items()
                if c.get('status') != build.NOT_IN_SCOPE}
    owners = {}
    for cap in caps:
        for test in cap['tests']:
            owners.setdefault(test, []).append(cap['id'])
    problems = []
    for name in selected:
        owned = owners.get(results_mod.idempotent_id(name), [])
        if owned and not in_scope & set(owned):
            problems.append('capability %s: report says not-in-scope, but '
                            'the run selected its test %s' % (
                                ', '.join(owned), name))
    return problems


def recompute(directory, members):
    """(capabilities compared, problems): every verdict recomputed from
    the unpacked bundle in ``directory``, as `conformance run` reached
    it, against report.json's."""
    missing = [n for n in (REPORT, SUBUNIT, SELECTED) if n not in members]
    if not any(n.startswith(GUIDELINES + '/') for n in members):
        missing.append(GUIDELINES + '/')
    if missing:
        return 0, ['verdicts not recomputed: no %s' % ', '.join(missing)]
    try:
        report = json.loads(members[REPORT])
        reported = {c['id']: c for c in report['capabilities']}
        summary = report['summary']
        selected = [line.strip() for line in members[SELECTED].decode(
            'utf-8').splitlines() if line.strip()]
        caps = guidelines_mod.load_all(
            directory=os.path.join(directory, GUIDELINES))
        res = results_mod.read_file(os.path.join(directory, SUBUNIT))
        res = results_mod.attribute_class_outcomes(res, selected)
        scope = {i for i, c in reported.items()
                 if c['status'] != build.NOT_IN_SCOPE}
        recomputed = build.verdicts(
            caps, res, summary.get('profile', 'default'), scope=scope,
            required=summary.get('required', ()),
            release=summary.get('release'))
    except _BAD_INPUT as e:
        return 0, ['verdicts not recomputed: %s: %s' % (
            type(e).__name__, (str(e).splitlines() or [''])[0][:300])]
    return len(recomputed), (_compare(reported, recomputed) +
                             _scope_problems(caps, reported, selected))


def verify(path):
    """(problems, {'members': checked, 'capabilities': recomputed}); one
    line per problem. NotABundle when ``path`` is not a bundle at all."""
    with tempfile.TemporaryDirectory(prefix='conformance-bundle-') as tmp:
        members, problems = _unpack(path, tmp)
        manifest_problems, checked = _check_manifest(members)
        problems += manifest_problems + _check_conf(members)
        if SUITE in members:
            problems += _check_suite(members)
        if REPORT in members and REPORT_HTML in members:
            problems += html_mod.check(
                members[REPORT_HTML].decode('utf-8', 'replace'),
                members[REPORT])
        capabilities, more = recompute(tmp, members)
    return problems + more, {'members': checked,
                             'capabilities': capabilities}
