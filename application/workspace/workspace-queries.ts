import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { LibraryQueries } from "#application/library/library-queries";
import { accessPolicy } from "#application/shared/access-policy";
import { DomainError } from "#domain/shared/domain-error";
import { CONVERSATIONS, type ConversationReadModel } from "#projections/conversation/conversations.projector";
import type { DocumentReadModel } from "#projections/library/documents.projector";
import { WORKSPACES, type WorkspaceReadModel } from "#projections/workspace/workspaces.projector";

export interface WorkspaceDocument {
  documentId: string;
  documentName: string;
  documentSource: DocumentReadModel["source"];
  documentType: string;
  kind: string | null;
  pageCount: number;
  status: DocumentReadModel["status"];
}

export interface WorkspaceDetail extends WorkspaceReadModel {
  documents: WorkspaceDocument[];
  conversations: ConversationReadModel[];
}

/** Reads for My Workspaces, the dashboard and the workspace screen; scoped to the owner. */
@injectable()
export class WorkspaceQueries {
  constructor(
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
  ) {}

  private get workspaces() {
    return this.store.collection<WorkspaceReadModel>(WORKSPACES);
  }

  /** Most recently used first; search is case-insensitive on part of the name. */
  async list(ownerId: string, options: { search?: string; limit?: number; offset?: number } = {}) {
    const search = options.search?.trim();
    const filter = search ? { ownerId, nameLower: { $icontains: search } } : { ownerId };
    const [workspaces, total] = await Promise.all([
      this.workspaces.find(filter, { sort: [{ field: "lastUsedAt", direction: "desc" }], limit: options.limit, offset: options.offset }),
      this.workspaces.count(filter),
    ]);
    return { workspaces, total };
  }

  async count(ownerId: string) {
    return this.workspaces.count({ ownerId });
  }

  /** The most recently used active workspace ('Pick up where you left...'). */
  async lastUsed(ownerId: string): Promise<WorkspaceReadModel | null> {
    const [latest] = await this.workspaces.find({ ownerId, status: "ACTIVE" }, { sort: [{ field: "lastUsedAt", direction: "desc" }], limit: 1 });
    return latest ?? null;
  }

  /** One workspace with its documents and chats; another user's id answers WORKSPACE_NOT_EXIST. */
  async get(ownerId: string, workspaceId: string): Promise<WorkspaceDetail> {
    const ws = await this.workspaces.get(workspaceId);
    if (!accessPolicy.canRead(ws, ownerId)) throw new DomainError("WORKSPACE_NOT_EXIST", "Workspace does not exist");
    const documents = (
      await Promise.all(ws.documentIds.map((id) => this.library.getDocument(ownerId, id).catch(() => null)))
    ).filter((d): d is DocumentReadModel => d !== null);
    const conversations = await this.store
      .collection<ConversationReadModel>(CONVERSATIONS)
      .find({ workspaceId, ownerId }, { sort: [{ field: "updatedAt", direction: "desc" }] });
    return {
      ...ws,
      documents: documents.map((d) => ({
        documentId: d.id,
        documentName: d.name,
        documentSource: d.source,
        documentType: d.fileType,
        kind: d.kind,
        pageCount: d.pageCount,
        status: d.status,
      })),
      conversations,
    };
  }
}
