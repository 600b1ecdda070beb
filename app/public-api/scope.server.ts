import type { TokenGrant } from "#application/identity/access-tokens";
import { DomainError } from "#domain/shared/domain-error";
import type { Services } from "#app/utils/services.server";
import { fail } from "./problem.server";

/**
 * The token's scope, on top of the access policy the pages use (decision 220):
 * a workspace outside a token's chosen ones answers exactly like a missing
 * one (404), and so do its documents and conversations; then the same
 * queries the pages call decide ownership and community access.
 */
type Scoped = { grant: TokenGrant; services: Services };

export async function workspaceInScope({ grant, services }: Scoped, workspaceId: string) {
  if (grant.workspaceIds && !grant.workspaceIds.includes(workspaceId)) throw new DomainError("WORKSPACE_NOT_EXIST", "Workspace does not exist");
  return services.workspaceQueries.get(grant.ownerId, workspaceId);
}

/** A document the owner may read (own, or shared by a community now); a scoped token reaches only its workspaces' documents. */
export async function documentInScope({ grant, services }: Scoped, documentId: string) {
  if (grant.workspaceIds) {
    const reachable = await Promise.all(
      grant.workspaceIds.map((id) => services.workspaceQueries.get(grant.ownerId, id).then((w) => w.documentIds.includes(documentId), () => false)),
    );
    if (!reachable.includes(true)) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
  }
  return services.libraryQueries.readableDocument(grant.ownerId, documentId);
}

export async function conversationInScope({ grant, services }: Scoped, conversationId: string) {
  const conversation = await services.conversations.owned(grant.ownerId, conversationId);
  if (grant.workspaceIds && !grant.workspaceIds.includes(conversation.workspaceId)) throw new DomainError("CONVERSATION_NOT_FOUND", "Conversation not found");
  return conversation;
}

/**
 * Adding documents or workspaces makes resources no chosen scope holds: only
 * a token for all workspaces may (a scoped token could not reach what it made).
 */
export function requireAllWorkspaces(grant: TokenGrant): void {
  if (grant.workspaceIds) fail(403, "This token is limited to chosen workspaces; adding or deleting documents and workspaces needs a token for all workspaces.", "TOKEN_SCOPE");
}

/** The workspaces a token reaches: its chosen ones that still exist, or (all workspaces) the owner's most recently used. */
export async function reachableWorkspaces({ grant, services }: Scoped, limit = 100) {
  if (!grant.workspaceIds) return (await services.workspaceQueries.list(grant.ownerId, { limit })).workspaces;
  const chosen = await Promise.all(grant.workspaceIds.map((id) => services.workspaceQueries.get(grant.ownerId, id).catch(() => null)));
  return chosen.filter((w) => w !== null);
}
