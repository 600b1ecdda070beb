import { describe, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type ResumeEvent, resumeDecider } from "./resume";

const spec = DeciderSpecification.for(resumeDecider);
const now = new Date("2026-11-25T10:00:00Z");
const at = now.toISOString();
const started: ResumeEvent = { type: "ResumeStarted", data: { resumeId: "r1", workspaceId: "w1", ownerId: "u1", startedAt: at } };
const content = (latex: string) => ({ latex, sources: [] });
const saved = (version: number, latex: string, origin: "draft" | "editor" | "chat" | "restore" = "editor", restoredFrom: number | null = null, author = "user"): ResumeEvent => ({
  type: "ResumeVersionSaved",
  data: { version, origin, restoredFrom, author, personal: content(latex), savedAt: at },
});

describe("a resume", () => {
  it("starts once, for a Resume Builder workspace's launch", () => {
    spec.given([]).when({ type: "StartResume", resumeId: "r1", workspaceId: "w1", ownerId: "u1", now }).then([started]);
    spec.given([started]).when({ type: "StartResume", resumeId: "r1", workspaceId: "w1", ownerId: "u1", now }).then([]);
  });

  it("keeps each save as a new version, the drafted one first", () => {
    spec.given([started]).when({ type: "SaveResumeVersion", content: content("A"), origin: "draft", author: "built-in", now }).then([saved(1, "A", "draft", null, "built-in")]);
    spec.given([started, saved(1, "A", "draft", null, "built-in")]).when({ type: "SaveResumeVersion", content: content("B"), origin: "editor", author: "user", now }).then([saved(2, "B")]);
  });

  it("records nothing when the saved text is already the newest version", () => {
    spec.given([started, saved(1, "A")]).when({ type: "SaveResumeVersion", content: content("A"), origin: "editor", author: "user", now }).then([]);
  });

  it("refuses an empty text, and saving before it started", () => {
    spec.given([started]).when({ type: "SaveResumeVersion", content: content("  \n"), origin: "editor", author: "user", now }).thenThrows("RESUME_EMPTY");
    spec.given([]).when({ type: "SaveResumeVersion", content: content("A"), origin: "editor", author: "user", now }).thenThrows("RESUME_NOT_FOUND");
  });

  it("restores an older version by saving it again as the newest", () => {
    spec.given([started, saved(1, "A"), saved(2, "B")]).when({ type: "RestoreResumeVersion", version: 1, now }).then([saved(3, "A", "restore", 1)]);
    spec.given([started, saved(1, "A")]).when({ type: "RestoreResumeVersion", version: 4, now }).thenThrows("RESUME_VERSION_NOT_FOUND");
  });

  it("records each repair attempt of a chat answer that did not compile", () => {
    spec
      .given([started, saved(1, "A")])
      .when({ type: "RecordRepairAttempt", attempt: 1, error: "Misplaced alignment tab character &.", fixed: true, author: "built-in", now })
      .then([{ type: "ResumeRepairAttempted", data: { attempt: 1, personal: { error: "Misplaced alignment tab character &." }, fixed: true, author: "built-in", attemptedAt: at } }]);
  });
});
