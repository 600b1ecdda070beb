import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/models — what a model picker offers this user (the workspace
 * settings' Chat Preferences, the chat settings' defaults): the built-in
 * keyset first, then each of the user's keysets with its models, and the
 * user's current defaults per scope.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { modelCatalog, keysets } = await getServices();
    const [options, defaults] = await Promise.all([modelCatalog.availableFor(user.id), keysets.defaults(user.id)]);
    return Response.json({ keysets: options, defaults }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
