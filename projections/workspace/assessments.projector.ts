import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { AssessmentEvent } from "#domain/workspace/assessment";

/** Each user's assessment (the /interview page); a user without a row has not started one. */
export interface AssessmentReadModel {
  /** The user id. */
  id: string;
  workspaceId: string;
  startedAt: string;
  endsAt: string;
  endedAt: string | null;
}

export const ASSESSMENTS = "workspace_assessments";

export const assessmentsProjector: Projector = {
  name: "workspace.assessments",
  collections: [ASSESSMENTS],
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    const assessments = store.collection<AssessmentReadModel>(ASSESSMENTS);
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      await assessments.delete(recorded.streamId.slice("user-".length));
      return;
    }
    if (!recorded.streamId.startsWith("assessment-")) return;
    const userId = recorded.streamId.slice("assessment-".length);
    const event = recorded as unknown as AssessmentEvent;
    switch (event.type) {
      case "AssessmentStarted": {
        const { workspaceId, startedAt } = event.data;
        await assessments.upsert({ id: userId, workspaceId, startedAt, endsAt: startedAt, endedAt: null });
        return;
      }
      case "AssessmentDeadlineSet":
        await assessments.patch(userId, { endsAt: event.data.endsAt });
        return;
      case "AssessmentEnded":
        await assessments.patch(userId, { endedAt: event.data.endedAt });
        return;
    }
  },
};
