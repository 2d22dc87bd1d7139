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

"""Proof that `conformance cleanup` leaves nothing behind, and only that.

    python -m conformance_tests.tools.cleanup_proof [--port-base P]
                                                    [--workdir W]

1. starts an embedded cloud and records everything in it (the baseline),
   after adding "foreign" resources a run did not make but whose names
   look close (another plugin's dynamic credentials, names that start
   with the prefix without a run's shape; the launcher's zones are
   already there);
2. makes, where the cloud has senlin or blazar, what killed seed-002 and
   seed-004 tests leave (proof_seed_objects.py: a cluster with a policy
   attached, its profile, a preemptible flavor, a suite enrolment, an
   ACTIVE lease);
3. starts `tempest run` of compute scenarios that boot servers, make
   server groups, a flavor, a user and quota changes, and waits until a
   server of the run exists;
4. SIGKILLs Tempest's process group (workers included), then leaves what
   a killed run can leave but this one cannot be relied on to: the fault
   cell down (a disruptive test killed mid-outage) and a placement
   topology built with the suite's own builder whose cleanups never ran
   (a gabbi test killed mid-file);
5. runs `conformance cleanup --workdir W` as a user would;
6. counts, through the APIs, what is not in the baseline (servers,
   server groups, flavors, aggregates and their hosts, users, projects,
   quota changes, providers, resource classes, traits; clusters,
   clustering policies and profiles, leases, blazar hosts) and the
   compute services nova shows UNKNOWN (a cell still down), and checks
   that every foreign resource and everything of the baseline is still
   there (a leased host back in blazar's freepool).

Exits 0 only when every count is 0 and nothing foreign went. Always
stops the cloud.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid

from conformance_tests.common import paths
from conformance_tests.common import ui
from conformance_tests.tools import proof_errors
from conformance_tests.tools import proof_seed_objects

REGEX = (r'^conformance_tests\.scenario\.test_(quota_from_placement\.'
         r'QuotaUsageTest|server_group_spread\.ServerGroupSpreadTest)\.')
WAIT_FOR_SERVER = 300  # s: Tempest start-up and a first boot, on a busy box
EXTRA_WAIT_FOR_GROUP = 15
DOWN_CELL_MICROVERSION = '2.69'  # services of a down cell show UNKNOWN

ProofError = proof_errors.ProofError


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.tools.cleanup_proof',
        description=__doc__.split('\n\n')[0])
    parser.add_argument('--port-base', type=int, default=18260)
    parser.add_argument('--workdir', default=os.path.join(
        '.conformance', 'cleanup-proof'))
    args = parser.parse_args(argv)
    started = time.monotonic()
    from conformance_tests.cloud import launcher
    cloud = launcher.EmbeddedCloud(args.workdir, port_base=args.port_base)
    try:
        cloud.up()
        ok = prove(cloud, args.workdir)
    except (launcher.CloudError, ProofError) as e:
        ui.fail(str(e))
        return 2
    except Exception as e:  # an API answer the proof did not expect
        from conformance_tests.cleanup import kinds
        ui.fail('%s: %s' % (type(e).__name__, kinds.one_line(e)))
        return 2
    finally:
        cloud.down()
    ui.say('cleanup proof: %s in %.1f s' % (
        'PASS' if ok else 'FAIL', time.monotonic() - started))
    return 0 if ok else 1


def prove(cloud, workdir):
    from conformance_tests.cleanup import context
    conf = context.load_conf(os.path.join(cloud.workspace, 'etc',
                                          'tempest.conf'))
    ctx = context.from_conf(conf)
    foreign = make_foreign(ctx, conf) + proof_seed_objects.make_foreign(
        ctx, conf)
    baseline = inventory(ctx)
    # Before the run: its zone-less boots must not take the idle host the
    # proof enrols in blazar.
    proof_seed_objects.leave(ctx, conf, ui.say)
    before_run = inventory(ctx)
    run = start_run(cloud.workspace, workdir)
    try:
        wait_for_run_servers(ctx, before_run, run)
    finally:
        kill_group(run)
    ui.say('Tempest killed (SIGKILL to its process group)')
    leave_placement_topology(ctx, conf)
    after_run = inventory(ctx)
    if not new_since(after_run, before_run)['servers']:
        raise ProofError('the killed run left no server: nothing to prove')
    left = new_since(after_run, baseline)
    run_projects, run_users = left['projects'], left['users']
    left['quota changes'] = quota_changes(ctx, run_projects, run_users)
    ctx.fault.cell_down(ctx.cell)
    if not cells_down(ctx):
        raise ProofError('the down-cell probe saw no UNKNOWN service with '
                         'cell %s down: it could not see a cell left down'
                         % ctx.cell)
    ui.say('left by the killed run: %s; cell %s down' % (
        counts(left), ctx.cell))

    cleanup_started = time.monotonic()
    done = subprocess.run(
        [sys.executable, '-m', 'conformance_tests.cmd.main', 'cleanup',
         '--workdir', workdir], capture_output=True, text=True)
    for line in (done.stdout + done.stderr).splitlines():
        ui.say('  cleanup: %s' % line)
    ui.say('cleanup exited %d in %.1f s' % (
        done.returncode, time.monotonic() - cleanup_started))

    now = inventory(ctx)
    left = new_since(now, baseline)
    # Nova shows no limits of a deleted project (400, not a valid
    # project): quota changes are counted on the run's projects that
    # still exist; a deleted project's limits can no longer apply.
    left['quota changes'] = quota_changes(
        ctx, run_projects & now['projects'], run_users)
    left['cells down'] = cells_down(ctx)
    gone = {kind: sorted(baseline[kind] - now[kind]) for kind in baseline}
    foreign_gone = sum(1 for kind, ident in foreign
                       if ident in gone[kind])
    ui.say('leftovers after cleanup: %s' % counts(left))
    ui.say('foreign resources removed: %d of %d; anything of the baseline '
           'removed: %d' % (foreign_gone, len(foreign),
                            sum(len(v) for v in gone.values())))
    return (done.returncode == 0 and not any(left.values())
            and not any(gone.values()))


def counts(found):
    return ', '.join('%s %d' % (kind, len(v) if isinstance(v, set) else v)
                     for kind, v in found.items())


# -- what the cloud holds -------------------------------------------------

def inventory(ctx):
    """Every resource of the kinds a run can leave, by id (or name)."""
    from tempest.lib.common import api_microversion_fixture
    with api_microversion_fixture.APIMicroversionFixture(
            compute_microversion=context_microversion()):
        aggregates = ctx.aggregates_client.list_aggregates()['aggregates']
        found = {
            'servers': {s['id'] for s in ctx.servers_client.list_servers(
                all_tenants=True)['servers']},
            'server groups': {g['id'] for g in (
                ctx.server_groups_client.list_server_groups(
                    all_projects=True)['server_groups'])},
            'flavors': {f['id'] for f in ctx.flavors_client.list_flavors(
                is_public=None)['flavors']},
            'aggregates': {a['id'] for a in aggregates},
            # A host a lease took out of blazar's freepool must be back.
            'aggregate hosts': {'%s:%s' % (a['name'], host)
                                for a in aggregates for host in a['hosts']},
            'users': {u['id'] for u in ctx.users_client.list_users()[
                'users']},
            'projects': {p['id'] for p in ctx.projects_client.list_projects()[
                'projects']},
            'resource providers': {p['uuid'] for p in (
                ctx.placement_client.list_providers())},
            'resource classes': {rc['name'] for rc in (
                ctx.placement_client.list_resource_classes())},
            'traits': set(ctx.placement_client.list_traits()),
        }
    for kind, ids in proof_seed_objects.kinds(ctx).items():
        found[kind] = ids()
    return found


def context_microversion():
    from conformance_tests.cleanup import context
    return context.COMPUTE_MICROVERSION


def new_since(now, baseline):
    return {kind: now[kind] - baseline[kind] for kind in baseline}


def quota_changes(ctx, projects, users):
    """Projects (of the run) whose limits, or whose users' limits, are
    not the defaults. Nova keeps them after the project is deleted."""
    quotas = ctx.quotas_client

    def limits(body):
        return {k: v for k, v in body['quota_set'].items() if k != 'id'}

    changed = 0
    for project in projects:
        own = limits(quotas.show_quota_set(project))
        if own != limits(quotas.show_default_quota_set(project)) or any(
                limits(quotas.show_quota_set(project, user_id=user)) != own
                for user in users):
            changed += 1
    return changed


def cells_down(ctx):
    """Compute services nova cannot read (status UNKNOWN from 2.69)."""
    import json
    client = ctx.servers_client
    headers = client.get_headers()
    headers['OpenStack-API-Version'] = 'compute %s' % DOWN_CELL_MICROVERSION
    headers['X-OpenStack-Nova-API-Version'] = DOWN_CELL_MICROVERSION
    _, body = client.get('os-services', headers=headers)
    return sum(1 for s in json.loads(body)['services']
               if s['status'] == 'UNKNOWN')


# -- what the proof adds ----------------------------------------------------

def make_foreign(ctx, conf):
    """Resources a run did not make, named to tempt a careless filter."""
    from tempest.lib.common import api_microversion_fixture
    prefix = conf.conformance.resource_prefix
    near = '%s-keep' % prefix
    made = []
    other = 'tempest-SomeoneElsesTest-%d' % (uuid.uuid4().int % 10 ** 9)
    project = ctx.projects_client.create_project(name=other)['project']
    made.append(('projects', project['id']))
    for name in (other + '-project', near):
        user = ctx.users_client.create_user(
            name=name, project_id=project['id'])['user']
        made.append(('users', user['id']))
    flavor = ctx.flavors_client.create_flavor(
        name=near, ram=64, vcpus=1, disk=1)['flavor']
    made.append(('flavors', flavor['id']))
    group = ctx.server_groups_client.create_server_group(
        name=near, policies=['affinity'])['server_group']
    made.append(('server groups', group['id']))
    with api_microversion_fixture.APIMicroversionFixture(
            compute_microversion='2.37'):  # networks='none'
        # In the suite's zone: a zone-less server may land on the one idle
        # host the proof then enrols in blazar (seen in a .ci/run).
        server = ctx.servers_client.create_server(
            name=near, imageRef=conf.compute.image_ref,
            flavorRef=conf.compute.flavor_ref, networks='none',
            availability_zone=conf.conformance.anti_affinity_zone)['server']
    made.append(('servers', server['id']))
    rp = str(uuid.uuid4())
    ctx.placement_client.create_provider(near, rp)
    made.append(('resource providers', rp))
    custom = 'CUSTOM_%s_KEEP' % prefix.upper().replace('-', '_')
    ctx.placement_client.create_resource_class(custom)
    ctx.placement_client.create_trait(custom)
    made += [('resource classes', custom), ('traits', custom)]
    for agg in ctx.aggregates_client.list_aggregates()['aggregates']:
        made.append(('aggregates', agg['id']))  # the launcher's zones
    ui.say('foreign resources: %d (%s)' % (len(made), ', '.join(
        sorted({kind for kind, _ in made}))))
    return made


def leave_placement_topology(ctx, conf):
    """A topology as a gabbi test builds it, its cleanups never run."""
    from conformance_tests.common import gabbi_files
    from conformance_tests.common import topology
    spec = gabbi_files.topologies('placement')['spec_figure']
    nested = {'resource_classes': ['CORE'], 'traits': ['FAST'],
              'providers': {
                  'root': {'inventory': {'CORE': 1}},
                  'mid': {'parent': 'root'},
                  'leaf': {'parent': 'mid', 'traits': ['FAST'],
                           'inventory': {'CORE': 1}}}}
    for one in (spec, nested):
        topology.build(ctx.placement_client, one,
                       conf.conformance.resource_prefix,
                       lambda *args: None)


# -- the run ----------------------------------------------------------------

def start_run(workspace, workdir):
    from conformance_tests.runner import tempest_runner
    tempest_runner.point_discovery_here(workspace)
    log = open(os.path.join(workdir, 'cleanup-proof-tempest.log'), 'wb')
    tempest = tempest_runner.tempest_executable()
    ui.say('tempest run --regex %s (concurrency 2)' % REGEX)
    # stestr writes each worker's test list to a temporary file that the
    # SIGKILL leaves: in the workdir, not in /tmp. (The embedded cloud's
    # tempest.conf sets Tempest's lock_path itself.) A relative TMPDIR
    # (the default workdir is) named nothing from the workspace, and the
    # lists went to /tmp: paths.tmp_env makes it absolute.
    tmp_parent = os.path.join(workdir, 'cleanup-proof')
    shutil.rmtree(tmp_parent, ignore_errors=True)
    return subprocess.Popen(
        [tempest, 'run', '--concurrency', '2', '--regex', REGEX],
        cwd=workspace, stdout=log, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, start_new_session=True,
        env=paths.tmp_env(tmp_parent))


def wait_for_run_servers(ctx, baseline, run):
    """Until a server of the run exists (and, briefly, a group too)."""
    deadline = time.monotonic() + WAIT_FOR_SERVER
    group_deadline = None
    while time.monotonic() < deadline:
        if run.poll() is not None:
            raise ProofError('tempest run ended (code %s) before a server '
                             'existed; see its log in the workdir' %
                             run.returncode)
        now = inventory(ctx)
        servers = now['servers'] - baseline['servers']
        groups = now['server groups'] - baseline['server groups']
        if servers:
            group_deadline = group_deadline or (
                time.monotonic() + EXTRA_WAIT_FOR_GROUP)
            if groups or time.monotonic() > group_deadline:
                ui.say('run has %d server(s), %d group(s): killing it' % (
                    len(servers), len(groups)))
                return
        time.sleep(0.5)
    raise ProofError('no server of the run within %d s' % WAIT_FOR_SERVER)


def kill_group(run):
    """SIGKILL Tempest and its workers (one process group), reap it."""
    try:
        os.killpg(run.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    run.wait()
    deadline = time.monotonic() + 10  # orphaned workers: init reaps them
    while time.monotonic() < deadline:
        try:
            os.killpg(run.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    raise ProofError('processes of the killed Tempest run survive in '
                     'group %d' % run.pid)


if __name__ == '__main__':
    sys.exit(main())
