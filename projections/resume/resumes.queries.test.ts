import { describe, expect, it } from "vitest";
import { projectEvents } from "../../tests/support/projector-feed";
import { resumesProjector } from "./resumes.projector";
import { ownedResume, resumeOfWorkspace, resumeVersion, resumeVersions } from "./resumes.queries";

const at = "2026-11-25T10:00:00.000Z";
const started = { streamId: "resume-r1", type: "ResumeStarted", data: { resumeId: "r1", workspaceId: "w1", ownerId: "u1", startedAt: at } };
const saved = (version: number, latex: string, origin = "editor", restoredFrom: number | null = null) => ({
  streamId: "resume-r1",
  type: "ResumeVersionSaved",
  data: { version, origin, restoredFrom, author: "user", personal: { latex, sources: [] }, savedAt: at },
});

describe("the resume queries", () => {
  it("answer DRAFTING until the first version, then ACTIVE with every version newest first", async () => {
    const drafting = await projectEvents([resumesProjector], [started]);
    expect((await ownedResume(drafting, "u1", "r1"))?.status).toBe("DRAFTING");
    const store = await projectEvents([resumesProjector], [started, saved(1, "A", "draft"), saved(2, "B"), saved(3, "A", "restore", 1)]);
    expect(await ownedResume(store, "u1", "r1")).toMatchObject({ status: "ACTIVE", latestVersion: 3 });
    expect((await resumeVersions(store, "r1")).map((v) => [v.version, v.origin, v.restoredFrom])).toEqual([
      [3, "restore", 1],
      [2, "editor", null],
      [1, "draft", null],
    ]);
    expect((await resumeVersion(store, "r1", 2))?.latex).toBe("B");
    expect((await resumeOfWorkspace(store, "u1", "w1"))?.id).toBe("r1");
  });

  it("answer nothing for another owner's resume", async () => {
    const store = await projectEvents([resumesProjector], [started]);
    expect(await ownedResume(store, "u2", "r1")).toBeNull();
    expect(await resumeOfWorkspace(store, "u2", "w1")).toBeNull();
  });

  it("forget a purged account's resumes", async () => {
    const store = await projectEvents([resumesProjector], [started, saved(1, "A"), { streamId: "user-u1", type: "AccountPurged", data: {} }]);
    expect(await ownedResume(store, "u1", "r1")).toBeNull();
    expect(await resumeVersions(store, "r1")).toEqual([]);
  });
});
