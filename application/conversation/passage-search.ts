import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Passage } from "#application/ports/language-model";
import type { SearchIndex } from "#application/ports/search-index";
import { LibraryQueries } from "#application/library/library-queries";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { citedName, retrievePassages } from "./retrieval";

/**
 * Passages for a query within a workspace, without asking a model (the
 * public API's search and the MCP search tool, decision 221): the same
 * retrieval a question uses, scoped and access-checked the same way
 * (decision 120). Keyword ranking (BM25) only: dense search needs the
 * workspace's embedding model, which answering loads, and a search should stay cheap.
 */
@injectable()
export class PassageSearch {
  constructor(
    @inject(TOKENS.SearchIndex) private readonly index: SearchIndex,
    @inject(WorkspaceQueries) private readonly workspaces: WorkspaceQueries,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
  ) {}

  async search(userId: string, workspaceId: string, query: string, limit: number): Promise<Passage[]> {
    const workspace = await this.workspaces.get(userId, workspaceId);
    const names = new Map(workspace.documents.map((d) => [d.documentId, citedName(d.documentName, d.documentSource)]));
    return retrievePassages({
      index: this.index,
      question: query,
      documentIds: workspace.documentIds,
      readable: async (ids) => (await this.library.readableDocuments(userId, ids)).map((d) => d.id),
      limit,
      documentName: (id) => names.get(id),
    });
  }
}
