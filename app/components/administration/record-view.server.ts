import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import type { CurrentUser } from "#app/utils/session.server";
import type { ViewedKind } from "#domain/administration/impersonation";

/**
 * What an impersonating admin opened is recorded on the impersonation's
 * stream (issue 15 §4): called by the loaders of a document, a workspace and
 * a conversation, and by every API read of them (issue 30: a document's JSON,
 * pages, layout, audio, download); it does nothing outside an impersonation.
 * Reading the same resource again within a minute is the same view (the decider's rule).
 */
export async function recordViewWhileImpersonating(request: Request, user: CurrentUser, kind: ViewedKind, resourceId: string, title: string): Promise<void> {
  if (!user.impersonation) return;
  const { impersonations } = await getServices();
  await impersonations.recordView(getRequestContext(request, { actorId: user.id }), kind, resourceId, title);
}

/** A document read through the API, which knows only its id: its title is looked up only while impersonating. */
export async function recordDocumentReadWhileImpersonating(request: Request, user: CurrentUser, documentId: string): Promise<void> {
  if (!user.impersonation) return;
  const { libraryQueries } = await getServices();
  const document = await libraryQueries.readableDocument(user.id, documentId);
  await recordViewWhileImpersonating(request, user, "document", document.id, document.name);
}
