import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/keysets/{id}/models — the provider's current model list for a saved key. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { keysets } = await getServices();
    const models = await keysets.refreshModels(user.id, params.id ?? "");
    return Response.json({ models: models.map((model_name) => ({ model_name })) }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
