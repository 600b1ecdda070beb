import { defineContextModule } from "#application/shared/context-module";
import { AccountAudit } from "#application/administration/account-audit";
import { AdminBootstrap, AdminRoles } from "#application/administration/admin-roles";
import { AdministrationQueries } from "#application/administration/administration-queries";
import { ImpersonationAudit } from "#application/administration/impersonation-audit";
import { ImpersonationExpiryActivities, ImpersonationExpiryStarter } from "#application/administration/impersonation-expiry";
import { ImpersonationService } from "#application/administration/impersonation-service";
import { WorkflowRuns } from "#application/administration/workflow-runs";
import { impersonationsProjector } from "#projections/administration/impersonations.projector";
import { impersonationExpiryWorkflow } from "#workflows/impersonation-expiry";

/** Admins (as events), admin user search, impersonation and its expiry, the audits, the operators' view of workflow runs. */
export const administrationModule = defineContextModule({
  name: "administration",
  streamCategories: ["impersonation", "administrator"],
  services: [AdministrationQueries, AdminRoles, ImpersonationService, ImpersonationExpiryActivities, AccountAudit, ImpersonationAudit, WorkflowRuns],
  projectors: [impersonationsProjector],
  workflows: [impersonationExpiryWorkflow],
  reactors: [AdminBootstrap, ImpersonationExpiryStarter],
  activities: (resolve) => resolve(ImpersonationExpiryActivities).registry(),
});
