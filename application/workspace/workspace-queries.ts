import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { LibraryQueries } from "#application/library/library-queries";
import { DomainError } from "#domain/shared/domain-error";
import { type ConversationReadModel, conversationsOfWorkspace } from "#projections/conversation/conversations.queries";
import type { DocumentReadModel } from "#projections/library/documents.queries";
import {
  countWorkspaces,
  lastUsedWorkspace,
  listWorkspaces,
  ownedWorkspace,
  type WorkspaceReadModel,
} from "#projections/workspace/workspaces.queries";

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

/**
 * Reads for My Workspaces, the dashboard and the workspace screen; scoped to
 * the owner. Documents and conversations belong to other contexts: they are
 * asked through those contexts' queries, never read from their collections.
 */
@injectable()
export class WorkspaceQueries {
  constructor(
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
  ) {}

  /** Most recently used first; search is case-insensitive on part of the name. */
  async list(ownerId: string, options: { search?: string; limit?: number; offset?: number } = {}) {
    return listWorkspaces(this.store, ownerId, options);
  }

  async count(ownerId: string) {
    return countWorkspaces(this.store, ownerId);
  }

  /** The most recently used active workspace ('Pick up where you left off'). */
  async lastUsed(ownerId: string): Promise<WorkspaceReadModel | null> {
    return lastUsedWorkspace(this.store, ownerId);
  }

  /** One workspace with its documents and chats; another user's id answers WORKSPACE_NOT_EXIST. */
  async get(ownerId: string, workspaceId: string): Promise<WorkspaceDetail> {
    const ws = await ownedWorkspace(this.store, ownerId, workspaceId);
    if (!ws) throw new DomainError("WORKSPACE_NOT_EXIST", "Workspace does not exist");
    // A community's document shows only while the owner may still read it (decision 120).
    const documents = await this.library.readableDocuments(ownerId, ws.documentIds);
    const conversations = await conversationsOfWorkspace(this.store, ownerId, workspaceId);
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
