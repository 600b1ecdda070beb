import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices, toApiCommunity } from "#app/components/community/community.server";
import { readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/** GET /api/communities: the communities the user belongs to (spec 001 §7). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { communityQueries } = await communityServices();
    const search = new URL(request.url).searchParams.get("q") ?? "";
    return Response.json({ communities: (await communityQueries.myList(user.id, search.slice(0, 200))).map(toApiCommunity) });
  } catch (error) {
    return communityErrorResponse(error);
  }
}

/** POST /api/communities {community_name, visibility, description} → {community_id}. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const body = (await readJsonBody(request)) as Record<string, unknown>;
    const { communities } = await communityServices();
    const input = { communityName: body.community_name, communityDescription: body.description, visibility: body.visibility ?? "PUBLIC" };
    const { communityId } = await communities.create(user.id, input, getRequestContext(request, { actorId: user.id }));
    return Response.json({ community_id: communityId }, { status: 201 });
  } catch (error) {
    return communityErrorResponse(error);
  }
}
