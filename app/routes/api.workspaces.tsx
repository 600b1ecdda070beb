import type { LoaderFunctionArgs } from "@remix-run/node";
import { toSummary, workspaceErrorResponse } from "#app/components/workspace/api.server";
import { listPageParams } from "#app/utils/list-page.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/workspaces?search=&limit=&offset= — the owner's workspaces, most recently used first (infinite scroll, switcher). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { search, limit, offset } = listPageParams(new URL(request.url));
    const { workspaceQueries } = await getServices();
    const { workspaces, total } = await workspaceQueries.list(user.id, { search, limit, offset });
    return Response.json({ workspaces: workspaces.map(toSummary), total }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return workspaceErrorResponse(error);
  }
}
