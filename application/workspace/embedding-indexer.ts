import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { SearchIndex } from "#application/ports/search-index";
import type { ActivitiesFor } from "#application/ports/workflow";
import { Aggregate } from "#application/shared/aggregate";
import { KeysetModels } from "#application/identity/keyset-models";
import { isDomainError } from "#domain/shared/domain-error";
import { embeddingSpace, type ModelChoice, type WorkspaceCommand, type WorkspaceEvent, type WorkspaceState } from "#domain/workspace/workspace";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import type { EmbeddingActivityName, EmbeddingPlan, EmbeddingStepOutcome, WorkspaceEmbeddingInput } from "#workflows/workspace-embedding";

/** Texts per provider call: small enough for every provider's batch limit and request size. */
const EMBED_BATCH = 64;

/**
 * The workspace-embedding workflow's activities: embeds each document's
 * chunks with the workspace's embedding model into that model's vector space
 * of the search index, reporting progress on the workspace. Every step reads
 * the workspace from its log and answers `stale` once a newer run was asked
 * for, so an abandoned run stops at its next step.
 */
@injectable()
export class EmbeddingIndexer {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SearchIndex) private readonly search: SearchIndex,
    @inject(KeysetModels) private readonly keysetModels: KeysetModels,
  ) {
    this.workspaces = new Aggregate(events, ids, workspaceAggregate);
  }

  private readonly workspaces: Aggregate<WorkspaceCommand, WorkspaceEvent, WorkspaceState>;

  activities(): ActivitiesFor<EmbeddingActivityName> {
    return {
      "workspace.embedding.plan": async (input): Promise<EmbeddingPlan> => {
        const run = await this.current(input as WorkspaceEmbeddingInput);
        return run ? { stale: false, documentIds: run.documentIds } : { stale: true };
      },
      "workspace.embedding.embedDocument": async (input): Promise<EmbeddingStepOutcome> => {
        const step = input as WorkspaceEmbeddingInput & { documentId: string; done: number; total: number };
        const run = await this.current(step);
        if (!run) return { stale: true };
        let failure: string | null = null;
        try {
          await this.embedDocument(run.ownerId, run.choice, step.documentId);
        } catch (error) {
          // A provider's readable refusal (key, model, limits) is the document's recorded outcome; anything else is retried.
          if (!isDomainError(error)) throw error;
          failure = error.message;
        }
        await this.execute(step.workspaceId, run.ownerId, {
          type: "RecordEmbeddingProgress",
          revision: step.revision,
          documentId: step.documentId,
          done: step.done,
          total: step.total,
          failure,
          now: this.clock.now(),
        });
        return { stale: false };
      },
      "workspace.embedding.complete": async (input) => {
        const { workspaceId, revision } = input as WorkspaceEmbeddingInput;
        const run = await this.current({ workspaceId, revision });
        if (run) await this.execute(workspaceId, run.ownerId, { type: "CompleteEmbeddingIndex", revision, now: this.clock.now() });
      },
    };
  }

  /** Embeds a document's chunks unless the space already holds a vector for each of them. */
  async embedDocument(ownerId: string, choice: ModelChoice, documentId: string): Promise<void> {
    const space = embeddingSpace(choice);
    const chunks = await this.search.listChunks(documentId);
    if (chunks.length === 0 || (await this.search.countVectors(space, documentId)) === chunks.length) return;
    const embedder = await this.keysetModels.embedder(ownerId, choice);
    for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
      const batch = chunks.slice(start, start + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map((chunk) => chunk.text));
      await this.search.upsertVectors(
        space,
        batch.map((chunk, i) => ({ chunkId: chunk.chunkId, documentId, vector: vectors[i] })),
      );
    }
  }

  /** The run's workspace, or null when the workspace is gone or a newer run was requested. */
  private async current({ workspaceId, revision }: WorkspaceEmbeddingInput) {
    const { state } = await this.workspaces.load(workspaceId);
    if (!state.exists || state.status === "DELETED" || state.embeddingRevision !== revision || !state.embedding) return null;
    return { ownerId: state.ownerId, choice: state.embedding, documentIds: state.documentIds };
  }

  private execute(workspaceId: string, ownerId: string, command: WorkspaceCommand) {
    return this.workspaces.handle(workspaceId, command, {
      metadata: { correlationId: `workspace-embedding-${workspaceId}`, actorId: ownerId, subjectId: ownerId },
    });
  }
}
