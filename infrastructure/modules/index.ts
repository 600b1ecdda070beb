import type { Projector } from "#application/ports/projection";
import type { WorkflowDefinition } from "#application/ports/workflow";
import { type ContextModule, streamContexts } from "#application/shared/context-module";
import { administrationModule } from "./administration.module";
import { communityModule } from "./community.module";
import { billingModule } from "./billing.module";
import { conversationModule } from "./conversation.module";
import { identityModule } from "./identity.module";
import { libraryModule } from "./library.module";
import { resumeModule } from "./resume.module";
import { workspaceModule } from "./workspace.module";

/** Every bounded context of the app. Adding a context is adding its module here (docs/decisions/050). */
export const contextModules: readonly ContextModule[] = [
  identityModule,
  libraryModule,
  workspaceModule,
  conversationModule,
  communityModule,
  administrationModule,
  resumeModule,
  billingModule,
];

/** Every projector of every context: the projection runner and `projections:rebuild` use this list. */
export const allProjectors: Projector[] = contextModules.flatMap((module) => module.projectors);

/** Every workflow definition, run by the embedded runner or by the Temporal worker. */
export const allWorkflows: WorkflowDefinition<any, any>[] = contextModules.flatMap((module) => module.workflows);

/** Stream category -> bounded context, for the Kafka topics (one per context). */
export const STREAM_CONTEXTS: Record<string, string> = streamContexts(contextModules);
