import type { LoaderFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices, toApiCommunity } from "#app/components/community/community.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/communities/public: every public community, with the user's role in each (private ones never appear). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { communityQueries } = await communityServices();
    const search = new URL(request.url).searchParams.get("q") ?? "";
    return Response.json({ communities: (await communityQueries.publicList(user.id, search.slice(0, 200))).map(toApiCommunity) });
  } catch (error) {
    return communityErrorResponse(error);
  }
}
