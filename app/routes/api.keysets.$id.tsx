import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { keysetInput, keysetJson } from "#app/utils/keysets.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

const noStore = { "Cache-Control": "private, no-store" };

/** GET /api/keysets/{id}; another user's id answers 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { keysets } = await getServices();
    return Response.json(keysetJson(await keysets.get(user.id, params.id ?? "")), { headers: noStore });
  } catch (error) {
    return apiErrorResponse(error);
  }
}

/** PUT /api/keysets/{id} edits (rename, replace key, endpoint, model); DELETE removes it (defaults fall back to the built-in keyset). */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  try {
    await validateCsrfHeader(request);
    const { keysets } = await getServices();
    const ctx = getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId });
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      await keysets.delete(user.id, id, ctx);
      return Response.json({ message: "Key deleted" }, { headers: noStore });
    }
    if (request.method === "PUT" || request.method === "PATCH") {
      const { name, apiKey, endpoint, model } = keysetInput(await readJsonBody(request));
      await keysets.edit(user.id, id, { name, apiKey, endpoint, model }, ctx);
      return Response.json(keysetJson(await keysets.get(user.id, id)), { headers: noStore });
    }
    return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
