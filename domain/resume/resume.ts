import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * The resume of a Resume Builder workspace (stream `resume-<id>`, docs/decisions/131):
 * a LaTeX document kept as versions. Started when the workspace's launch
 * records `ResumeCreated`, DRAFTING until its first version (drafted from the
 * workspace's documents), then ACTIVE. Every save is a new version; an older
 * version is restored by saving it again as the newest. The LaTeX text and
 * the quoted passages are the owner's personal data.
 */

export type ResumeOrigin = "draft" | "editor" | "chat" | "restore";
export const RESUME_ORIGINS = ["draft", "editor", "chat", "restore"] as const satisfies readonly ResumeOrigin[];

/** Where a line of the drafted resume came from: a passage of one of the workspace's documents. */
export interface SourceLink {
  /** 1-based line of the LaTeX source. */
  line: number;
  documentId: string;
  pageNumber: number;
  quote: string;
}

export interface ResumeVersionContent {
  latex: string;
  sources: SourceLink[];
}

export type ResumeEvent =
  | DomainEvent<"ResumeStarted", { resumeId: string; workspaceId: string; ownerId: string; startedAt: string }>
  | DomainEvent<
      "ResumeVersionSaved",
      {
        version: number;
        origin: ResumeOrigin;
        /** The version this one restores (origin "restore"). */
        restoredFrom: number | null;
        /** Who wrote it: "built-in" (offline drafting/repairs), a provider model, or "user". */
        author: string;
        personal: ResumeVersionContent | null;
        savedAt: string;
      }
    >
  /** A chat answer's LaTeX did not compile and a repair was tried (001 §4 Retry), fixed or not. */
  | DomainEvent<"ResumeRepairAttempted", { attempt: number; personal: { error: string } | null; fixed: boolean; author: string; attemptedAt: string }>;

export type ResumeCommand =
  | { type: "StartResume"; resumeId: string; workspaceId: string; ownerId: string; now: Date }
  | { type: "SaveResumeVersion"; content: ResumeVersionContent; origin: Exclude<ResumeOrigin, "restore">; author: string; now: Date }
  | { type: "RestoreResumeVersion"; version: number; now: Date }
  | { type: "RecordRepairAttempt"; attempt: number; error: string; fixed: boolean; author: string; now: Date };

export interface ResumeVersionState {
  version: number;
  origin: ResumeOrigin;
  restoredFrom: number | null;
  author: string;
  savedAt: string;
  /** null once the owner's data was forgotten. */
  content: ResumeVersionContent | null;
}

export type ResumeState =
  | { status: "NONE" }
  | {
      status: "DRAFTING" | "ACTIVE";
      resumeId: string;
      workspaceId: string;
      ownerId: string;
      versions: ResumeVersionState[];
      repairAttempts: number;
    };

export const resumeStreamId = (resumeId: string) => `resume-${resumeId}`;

/** A resume is a few KiB of LaTeX; this bounds what one version may hold (the compiler refuses more anyway). */
export const MAX_RESUME_BYTES = 512 * 1024;

function started(state: ResumeState) {
  if (state.status === "NONE") throw new DomainError("RESUME_NOT_FOUND", "Resume not found");
  return state;
}

function save(command: Extract<ResumeCommand, { type: "SaveResumeVersion" }>, state: ResumeState): ResumeEvent[] {
  const resume = started(state);
  const latex = command.content.latex;
  if (!latex.trim()) throw new DomainError("RESUME_EMPTY", "The resume is empty.");
  if (new TextEncoder().encode(latex).length > MAX_RESUME_BYTES) throw new DomainError("RESUME_TOO_LARGE", "The resume is too large to save.");
  const latest = resume.versions.at(-1);
  // Saving what is already the newest version records nothing (a repeated click, a retried request).
  if (latest?.content?.latex === latex) return [];
  return [
    {
      type: "ResumeVersionSaved",
      data: {
        version: (latest?.version ?? 0) + 1,
        origin: command.origin,
        restoredFrom: null,
        author: command.author,
        personal: command.content,
        savedAt: command.now.toISOString(),
      },
    },
  ];
}

function restore(command: Extract<ResumeCommand, { type: "RestoreResumeVersion" }>, state: ResumeState): ResumeEvent[] {
  const resume = started(state);
  const old = resume.versions.find((v) => v.version === command.version);
  if (!old) throw new DomainError("RESUME_VERSION_NOT_FOUND", "That version of the resume does not exist.");
  if (!old.content) throw new DomainError("RESUME_VERSION_ERASED", "That version's text was erased.");
  const latest = resume.versions.at(-1)!;
  if (latest.version === old.version) return [];
  return [
    {
      type: "ResumeVersionSaved",
      data: {
        version: latest.version + 1,
        origin: "restore",
        restoredFrom: old.version,
        author: "user",
        personal: old.content,
        savedAt: command.now.toISOString(),
      },
    },
  ];
}

export const resumeDecider: Decider<ResumeCommand, ResumeEvent, ResumeState> = {
  initialState: () => ({ status: "NONE" }),
  decide(command, state) {
    switch (command.type) {
      case "StartResume":
        if (state.status !== "NONE") return [];
        return [
          {
            type: "ResumeStarted",
            data: { resumeId: command.resumeId, workspaceId: command.workspaceId, ownerId: command.ownerId, startedAt: command.now.toISOString() },
          },
        ];
      case "SaveResumeVersion":
        return save(command, state);
      case "RestoreResumeVersion":
        return restore(command, state);
      case "RecordRepairAttempt":
        started(state);
        return [
          {
            type: "ResumeRepairAttempted",
            // The compiler's message quotes the resume's lines: the owner's personal data, like the resume itself.
            data: { attempt: command.attempt, personal: { error: command.error }, fixed: command.fixed, author: command.author, attemptedAt: command.now.toISOString() },
          },
        ];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "ResumeStarted":
        return { status: "DRAFTING", ...event.data, versions: [], repairAttempts: 0 };
      case "ResumeVersionSaved": {
        if (state.status === "NONE") return state;
        const { personal, ...rest } = event.data;
        return { ...state, status: "ACTIVE", versions: [...state.versions, { ...rest, content: personal }] };
      }
      case "ResumeRepairAttempted":
        return state.status === "NONE" ? state : { ...state, repairAttempts: state.repairAttempts + 1 };
    }
  },
};
