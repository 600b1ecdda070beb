import type { ReadModelStore } from "#application/ports/read-model-store";
import { RESUME_VERSIONS, RESUMES, type ResumeReadModel, type ResumeVersionReadModel } from "./resumes.projector";

export type { ResumeReadModel, ResumeVersionReadModel };

/** The owner's resume, or null (missing and foreign alike). */
export async function ownedResume(store: ReadModelStore, ownerId: string, resumeId: string): Promise<ResumeReadModel | null> {
  const row = await store.collection<ResumeReadModel>(RESUMES).get(resumeId);
  return row && row.ownerId === ownerId ? row : null;
}

/** The resume of one of the owner's workspaces, or null. */
export async function resumeOfWorkspace(store: ReadModelStore, ownerId: string, workspaceId: string): Promise<ResumeReadModel | null> {
  return store.collection<ResumeReadModel>(RESUMES).findOne({ workspaceId, ownerId });
}

/** Every version, newest first. */
export async function resumeVersions(store: ReadModelStore, resumeId: string): Promise<ResumeVersionReadModel[]> {
  return store.collection<ResumeVersionReadModel>(RESUME_VERSIONS).find({ resumeId }, { sort: [{ field: "version", direction: "desc" }] });
}

export async function resumeVersion(store: ReadModelStore, resumeId: string, version: number): Promise<ResumeVersionReadModel | null> {
  return store.collection<ResumeVersionReadModel>(RESUME_VERSIONS).get(`${resumeId}:${version}`);
}
