import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import type { CurrentUser } from "#app/utils/session.server";
import type { ViewedKind } from "#domain/administration/impersonation";

/**
 * What an impersonating admin opened is recorded on the impersonation's
 * stream (issue 15 §4): called by the loaders of a document, a workspace and
 * a conversation; it does nothing outside an impersonation.
 */
export async function recordViewWhileImpersonating(request: Request, user: CurrentUser, kind: ViewedKind, resourceId: string, title: string): Promise<void> {
  if (!user.impersonation) return;
  const { impersonations } = await getServices();
  await impersonations.recordView(getRequestContext(request, { actorId: user.id }), kind, resourceId, title);
}
