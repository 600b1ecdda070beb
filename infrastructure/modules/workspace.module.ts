import { defineContextModule } from "#application/shared/context-module";
import { EmbeddingIndexer } from "#application/workspace/embedding-indexer";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { KeysetDeletedReaction, WorkspaceWorkflowStarter } from "#application/workspace/workspace-reactors";
import { workspacesProjector } from "#projections/workspace/workspaces.projector";
import { workspaceEmbeddingWorkflow } from "#workflows/workspace-embedding";
import { workspaceLaunchWorkflow } from "#workflows/workspace-launch";

/** Workspaces: attached documents, chat preferences, launch, the embedding index. */
export const workspaceModule = defineContextModule({
  name: "workspace",
  streamCategories: ["workspace"],
  services: [WorkspaceService, WorkspaceQueries, EmbeddingIndexer],
  projectors: [workspacesProjector],
  workflows: [workspaceLaunchWorkflow, workspaceEmbeddingWorkflow],
  reactors: [WorkspaceWorkflowStarter, KeysetDeletedReaction],
  activities: (resolve) => ({ ...resolve(WorkspaceService).activities(), ...resolve(EmbeddingIndexer).activities() }),
});
