"""The orchestration endpoint senlin's stack profiles need (see
cloud/orchestration_stub.py).

Not heat: senlin 16 previews an os.heat.stack-1.0 profile's template on
heat before it stores the profile, and the affinity policy's
profile-type rule needs a cluster of such a profile (with no nodes). The
stub answers that preview for empty templates only. It runs in senlin's
process, the only one that calls it.
"""

from conformance_tests.cloud.services import base


class OrchestrationStub(base.Service):
    name = 'orchestration-stub'
    process = 'senlin'
    catalog = (base.CatalogEntry('orchestration', base.API,
                                 '/v1/$(project_id)s'),)
    depends_on = ('keystone',)

    def tempest_conf(self, ctx):
        # heat is not available ([service_available] heat stays false):
        # only senlin's profile check is served.
        return {'conformance': {'senlin_heat_profiles': 'true'}}

    def build(self, proc):
        from conformance_tests.cloud import orchestration_stub
        return {base.API: orchestration_stub.app}


SERVICE = OrchestrationStub()
