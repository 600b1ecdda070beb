import type { LoaderFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices, toApiCommunity } from "#app/components/community/community.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/communities/{id}: the community with its resources; a private one the user does not belong to is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { communityQueries } = await communityServices();
    return Response.json(toApiCommunity(await communityQueries.detail(user.id, params.id ?? "")));
  } catch (error) {
    return communityErrorResponse(error);
  }
}
