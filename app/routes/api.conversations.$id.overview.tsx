import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/conversations/{id}/overview — summary and suggested questions from the built-in model. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { conversations } = await getServices();
    return Response.json(await conversations.overview(user.id, params.id ?? ""), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
