import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { keysetInput, keysetJson } from "#app/utils/keysets.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

const noStore = { "Cache-Control": "private, no-store" };

/** GET /api/keysets — the user's saved keys (GET /user/keysets in the spec); never the keys themselves. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { keysets } = await getServices();
    return Response.json({ keysets: (await keysets.list(user.id)).map(keysetJson), defaults: await keysets.defaults(user.id) }, { headers: noStore });
  } catch (error) {
    return apiErrorResponse(error);
  }
}

/** POST /api/keysets — add a key (checked with the provider first); answers the models it offers. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  try {
    if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
    await validateCsrfHeader(request);
    const { keysets } = await getServices();
    const ctx = getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId });
    const added = await keysets.add(user.id, keysetInput(await readJsonBody(request)), ctx);
    return Response.json({ keySet_id: added.keysetId, models: added.models.map((model_name) => ({ model_name })) }, { status: 201, headers: noStore });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
