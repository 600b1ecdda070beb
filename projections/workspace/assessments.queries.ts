import type { ReadModelStore } from "#application/ports/read-model-store";
import type { AssessmentState } from "#domain/workspace/assessment";
import { ASSESSMENTS, type AssessmentReadModel } from "./assessments.projector";

/** The user's assessment as the decider's state: not started, running, or ended. */
export async function assessmentOf(store: ReadModelStore, userId: string): Promise<AssessmentState> {
  const row = await store.collection<AssessmentReadModel>(ASSESSMENTS).get(userId);
  if (!row) return { status: "NotStarted" };
  const { workspaceId, startedAt, endsAt, endedAt } = row;
  return endedAt ? { status: "Ended", workspaceId, startedAt, endsAt, endedAt } : { status: "Running", workspaceId, startedAt, endsAt };
}
