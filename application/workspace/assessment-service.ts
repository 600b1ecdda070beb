import { inject, injectable } from "inversify";
import { z } from "zod";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { LibraryQueries } from "#application/library/library-queries";
import type { AppSettings } from "#application/shared/app-settings";
import { Aggregate } from "#application/shared/aggregate";
import { parseInput } from "#application/shared/parse";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { DomainError, isDomainError } from "#domain/shared/domain-error";
import {
  type AssessmentCommand,
  type AssessmentEvent,
  type AssessmentPhase,
  type AssessmentState,
  assessmentDecider,
  assessmentPhase,
  assessmentStreamId,
} from "#domain/workspace/assessment";
import { assessmentAggregate } from "#domain/workspace/workspace-events";
import { assessmentOf } from "#projections/workspace/assessments.queries";
import { WorkspaceQueries } from "./workspace-queries";
import { WorkspaceService } from "./workspace-service";

export interface AssessmentView {
  phase: AssessmentPhase;
  /** The assessment's workspace and deadline once started (kept after it ended); null before. */
  assessment: { workspaceId: string; endsAt: string; launching: boolean } | null;
  /** When the offer closes (ISO), or null when it stays open. */
  offerClosesAt: string | null;
  /** The server's clock, so the page counts down by it rather than the browser's. */
  serverNow: string;
}

const startSchema = z.object({ documentId: z.string().optional() });

/** The candidate assessment (/interview): one per user, kept in its own stream. */
@injectable()
export class AssessmentService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
    @inject(WorkspaceQueries) private readonly workspaceQueries: WorkspaceQueries,
    @inject(WorkspaceService) private readonly workspaces: WorkspaceService,
  ) {
    this.assessments = new Aggregate(events, ids, assessmentAggregate);
  }

  private readonly assessments: Aggregate<AssessmentCommand, AssessmentEvent, AssessmentState>;

  async view(userId: string): Promise<AssessmentView> {
    const now = this.clock.now();
    const state = await assessmentOf(this.readModels, userId);
    const offer = this.settings.assessmentOfferClosesAt;
    return {
      phase: assessmentPhase(state, now, offer),
      assessment:
        state.status === "NotStarted"
          ? null
          : { workspaceId: state.workspaceId, endsAt: state.endsAt, launching: await this.launching(userId, state.workspaceId) },
      offerClosesAt: offer?.toISOString() ?? null,
      serverNow: now.toISOString(),
    };
  }

  /**
   * Start Interview: opens a workspace with the chosen resume (or the first
   * ready document) and starts the clock. A running assessment answers its
   * workspace instead; an ended one answers ASSESSMENT_ENDED.
   */
  async start(userId: string, input: unknown, ctx: RequestContext): Promise<{ workspaceId: string; launching: boolean }> {
    const { documentId } = parseInput(startSchema, input);
    const now = this.clock.now();
    const state = await this.current(userId);
    const phase = assessmentPhase(state, now, this.settings.assessmentOfferClosesAt);
    if (phase === "running" && state.status === "Running") return { workspaceId: state.workspaceId, launching: await this.launching(userId, state.workspaceId) };
    if (phase === "ended") {
      await this.execute(userId, ctx, { type: "EndAssessment", now });
      throw new DomainError("ASSESSMENT_ENDED", "This assessment has ended.");
    }
    const resume = await this.resume(userId, documentId);
    const pad = (n: number) => String(n).padStart(2, "0");
    const { workspaceId } = await this.workspaces.create(
      userId,
      {
        name: `Interview ${pad(now.getDate())}/${pad(now.getMonth() + 1)}/${now.getFullYear()} ${pad(now.getHours())}:${pad(now.getMinutes())}`,
        description: "Candidate pre-screen assessment (1 question, 60 minutes).",
        type: "Conversation",
        documentIds: [resume],
      },
      ctx,
    );
    try {
      await this.execute(userId, ctx, { type: "StartAssessment", userId, workspaceId, documentId: resume, now, offerClosesAt: this.settings.assessmentOfferClosesAt });
      return { workspaceId, launching: true };
    } catch (error) {
      // Another tab started it a moment earlier: that one is the assessment.
      if (!isDomainError(error) || error.code !== "ASSESSMENT_ALREADY_STARTED") throw error;
      const winner = await this.current(userId);
      if (winner.status === "NotStarted") throw error;
      return { workspaceId: winner.workspaceId, launching: await this.launching(userId, winner.workspaceId) };
    }
  }

  /** The chosen document if it is the user's and ready, else their newest ready one. */
  private async resume(userId: string, documentId: string | undefined): Promise<string> {
    const { documents } = await this.library.listDocuments(userId, { limit: 500 });
    const ready = documents.filter((d) => d.status === "ACTIVE");
    const chosen = ready.find((d) => d.id === documentId) ?? ready[0];
    if (!chosen) throw new DomainError("ASSESSMENT_NEEDS_RESUME", "Upload your resume first: the interview needs at least one ready document.");
    return chosen.id;
  }

  private async launching(userId: string, workspaceId: string): Promise<boolean> {
    const workspace = await this.workspaceQueries.get(userId, workspaceId).catch(() => null);
    return workspace?.status === "CREATING";
  }

  /** The log decides whether to start (the read model may lag behind another tab's start). */
  private async current(userId: string) {
    return (await this.assessments.load(userId)).state;
  }

  private async execute(userId: string, ctx: RequestContext, command: AssessmentCommand) {
    const result = await this.assessments.handle(userId, command, { metadata: eventMetadata(ctx, userId, assessmentStreamId(userId)) });
    await this.projections.waitForPosition(result.position);
    return result;
  }
}
