import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { ResumeOrigin, SourceLink } from "#domain/resume/resume";
import { resumeStreamId } from "#domain/resume/resume";
import { resumeAggregate } from "#domain/resume/resume-events";
import { aggregateIdIn } from "#domain/shared/decider";
import { readEvent } from "#domain/shared/event-schemas";

export interface ResumeReadModel {
  id: string;
  workspaceId: string;
  ownerId: string;
  /** DRAFTING until the first version is written, then ACTIVE (spec 001 §4: polled until ACTIVE). */
  status: "DRAFTING" | "ACTIVE";
  latestVersion: number;
  repairAttempts: number;
  updatedAt: string;
}

export interface ResumeVersionReadModel {
  /** `<resumeId>:<version>` */
  id: string;
  resumeId: string;
  ownerId: string;
  version: number;
  origin: ResumeOrigin;
  restoredFrom: number | null;
  author: string;
  latex: string;
  sources: SourceLink[];
  savedAt: string;
}

export const RESUMES = "resume_resumes";
export const RESUME_VERSIONS = "resume_versions";

export const resumesProjector: Projector = {
  name: "resume.resumes",
  collections: [RESUMES, RESUME_VERSIONS],
  async setup(store: ReadModelStore) {
    await store.collection<ResumeReadModel>(RESUMES).ensureIndex(["workspaceId"]);
    await store.collection<ResumeVersionReadModel>(RESUME_VERSIONS).ensureIndex(["resumeId", "version"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    const resumes = store.collection<ResumeReadModel>(RESUMES);
    const versions = store.collection<ResumeVersionReadModel>(RESUME_VERSIONS);
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      const ownerId = recorded.streamId.slice("user-".length);
      await resumes.deleteMany({ ownerId });
      await versions.deleteMany({ ownerId });
      return;
    }
    if (!recorded.streamId.startsWith(resumeStreamId(""))) return;
    const resumeId = aggregateIdIn(recorded.streamId, resumeStreamId);
    const event = readEvent(resumeAggregate.events, recorded);
    switch (event.type) {
      case "ResumeStarted":
        await resumes.upsert({
          id: resumeId,
          workspaceId: event.data.workspaceId,
          ownerId: event.data.ownerId,
          status: "DRAFTING",
          latestVersion: 0,
          repairAttempts: 0,
          updatedAt: event.data.startedAt,
        });
        return;
      case "ResumeVersionSaved": {
        const resume = await resumes.get(resumeId);
        if (!resume) return;
        await resumes.patch(resumeId, { status: "ACTIVE", latestVersion: Math.max(resume.latestVersion, event.data.version), updatedAt: event.data.savedAt });
        // A forgotten owner's text is gone: the version row says so by its absence.
        if (!event.data.personal) return;
        await versions.upsert({
          id: `${resumeId}:${event.data.version}`,
          resumeId,
          ownerId: resume.ownerId,
          version: event.data.version,
          origin: event.data.origin,
          restoredFrom: event.data.restoredFrom,
          author: event.data.author,
          latex: event.data.personal.latex,
          sources: event.data.personal.sources,
          savedAt: event.data.savedAt,
        });
        return;
      }
      case "ResumeRepairAttempted": {
        const resume = await resumes.get(resumeId);
        if (resume) await resumes.patch(resumeId, { repairAttempts: resume.repairAttempts + 1 });
        return;
      }
    }
  },
};
