import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "#application/ports/event-store";
import { DomainError } from "#domain/shared/domain-error";
import { DEFAULT_CHAT_PREFERENCE } from "#domain/workspace/workspace";
import { workspacesProjector } from "#projections/workspace/workspaces.projector";
import { projectEvents } from "../../tests/support/projector-feed";
import { ResumeDrafter } from "./resume-reactors";
import type { ResumeService } from "./resume-service";

const startedAt = "2026-11-25T10:00:00.000Z";
const resumeStarted: RecordedEvent = {
  eventId: "e1",
  type: "ResumeStarted",
  schemaVersion: 1,
  data: { resumeId: "r1", workspaceId: "w1", ownerId: "u1", startedAt },
  metadata: { correlationId: "c", actorId: "u1", subjectId: "u1" },
  streamId: "resume-r1",
  streamVersion: 0,
  position: 10,
  recordedAt: startedAt,
};
const workspaceCreated = {
  streamId: "workspace-w1",
  type: "WorkspaceCreated",
  data: { workspaceId: "w1", ownerId: "u1", type: "Resume Builder", requestedDocumentIds: [], chatPreference: DEFAULT_CHAT_PREFERENCE, personal: { name: "CV", description: "" }, createdAt: startedAt },
};
const workspaceLaunched = { streamId: "workspace-w1", type: "WorkspaceLaunched", data: { launchedAt: startedAt } };

function drafter(store: Awaited<ReturnType<typeof projectEvents>>, minutesLater: number) {
  const drafted: string[] = [];
  const service = { draft: async (id: string) => void drafted.push(id) } as unknown as ResumeService;
  const clock = { now: () => new Date(new Date(startedAt).getTime() + minutesLater * 60_000) };
  return { reactor: new ResumeDrafter(service, store, clock), drafted };
}

describe("drafting a started resume", () => {
  it("waits (a retryable failure) while the workspace is still launching", async () => {
    const { reactor, drafted } = drafter(await projectEvents([workspacesProjector], [workspaceCreated]), 0);
    const failure = await reactor.react(resumeStarted).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(DomainError);
    expect(drafted).toEqual([]);
  });

  it("drafts once the workspace launched", async () => {
    const { reactor, drafted } = drafter(await projectEvents([workspacesProjector], [workspaceCreated, workspaceLaunched]), 0);
    await reactor.react(resumeStarted);
    expect(drafted).toEqual(["r1"]);
  });

  it("gives up, instead of holding back every later resume, when the workspace never appears", async () => {
    const { reactor } = drafter(await projectEvents([workspacesProjector], []), 11);
    await expect(reactor.react(resumeStarted)).rejects.toMatchObject({ code: "WORKSPACE_NOT_EXIST" });
  });
});
