import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readableBy } from "#application/shared/access-policy";
import { DomainError } from "#domain/shared/domain-error";
import { type ResumeReadModel, type ResumeVersionReadModel, ownedResume, resumeOfWorkspace, resumeVersion, resumeVersions } from "#projections/resume/resumes.queries";

export type { ResumeReadModel, ResumeVersionReadModel };

const notFound = () => new DomainError("RESUME_NOT_FOUND", "Resume not found");

/** Reads of the resume: the owner's only (a foreign id answers "not found"). */
@injectable()
export class ResumeQueries {
  constructor(@inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore) {}

  async get(ownerId: string, resumeId: string): Promise<ResumeReadModel> {
    return readableBy(await ownedResume(this.store, ownerId, resumeId), ownerId, notFound);
  }

  /** The resume of a workspace, or null (a Conversation workspace, or one still launching). */
  async ofWorkspace(ownerId: string, workspaceId: string): Promise<ResumeReadModel | null> {
    return resumeOfWorkspace(this.store, ownerId, workspaceId);
  }

  /** Every version, newest first (the version list). */
  async versions(ownerId: string, resumeId: string): Promise<ResumeVersionReadModel[]> {
    await this.get(ownerId, resumeId);
    return resumeVersions(this.store, resumeId);
  }

  /** One version; the newest when version is omitted. */
  async version(ownerId: string, resumeId: string, version?: number): Promise<ResumeVersionReadModel> {
    const resume = await this.get(ownerId, resumeId);
    const found = await resumeVersion(this.store, resumeId, version ?? resume.latestVersion);
    if (!found) throw new DomainError("RESUME_VERSION_NOT_FOUND", "That version of the resume does not exist.");
    return found;
  }
}
