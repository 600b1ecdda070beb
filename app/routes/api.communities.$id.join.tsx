import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices } from "#app/components/community/community.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/**
 * /api/communities/{id}/join (spec 001 §7 names a GET). Joining changes state,
 * so it is a POST with the CSRF header (decision 122); GET only tells the
 * user's role, so a link or an image tag cannot make anyone join.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { communityQueries } = await communityServices();
    const { role, requested } = await communityQueries.roleIn(user.id, params.id ?? "");
    return Response.json({ role, join_requested: requested });
  } catch (error) {
    return communityErrorResponse(error);
  }
}

/** POST: a viewer of a public community becomes MEMBER; of a private one, asks a moderator. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { communities } = await communityServices();
    const { role, requested } = await communities.join(user.id, params.id ?? "", getRequestContext(request, { actorId: user.id }));
    return Response.json({ role, join_requested: requested });
  } catch (error) {
    return communityErrorResponse(error);
  }
}
