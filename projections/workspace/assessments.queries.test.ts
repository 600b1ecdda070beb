import { describe, expect, it } from "vitest";
import { projectEvents } from "../../tests/support/projector-feed";
import { assessmentsProjector } from "./assessments.projector";
import { assessmentOf } from "./assessments.queries";

const startedAt = "2024-11-20T09:00:00.000Z";
const endsAt = "2024-11-20T10:00:00.000Z";
const started = [
  { streamId: "assessment-u1", type: "AssessmentStarted", data: { userId: "u1", workspaceId: "w1", documentId: "d1", startedAt } },
  { streamId: "assessment-u1", type: "AssessmentDeadlineSet", data: { endsAt } },
];

describe("the assessment query", () => {
  it("answers not started, running with its deadline, then ended", async () => {
    const running = await projectEvents([assessmentsProjector], started);
    expect(await assessmentOf(running, "u2")).toEqual({ status: "NotStarted" });
    expect(await assessmentOf(running, "u1")).toEqual({ status: "Running", workspaceId: "w1", startedAt, endsAt });
    const ended = await projectEvents([assessmentsProjector], [...started, { streamId: "assessment-u1", type: "AssessmentEnded", data: { endedAt: endsAt } }]);
    expect(await assessmentOf(ended, "u1")).toEqual({ status: "Ended", workspaceId: "w1", startedAt, endsAt, endedAt: endsAt });
  });

  it("forgets a purged account's assessment", async () => {
    const store = await projectEvents([assessmentsProjector], [...started, { streamId: "user-u1", type: "AccountPurged", data: {} }]);
    expect(await assessmentOf(store, "u1")).toEqual({ status: "NotStarted" });
  });
});
