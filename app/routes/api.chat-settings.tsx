import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/** GET /api/chat-settings — the user's chat layout (font size, response language, side, width, sheet height). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { chatLayouts } = await getServices();
  return Response.json(await chatLayouts.get(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

/** PUT /api/chat-settings — any subset of the settings; answers the whole layout, or {code, message, field}. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "PUT") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { chatLayouts } = await getServices();
    const layout = await chatLayouts.change(user.id, await readJsonBody(request, 4 * 1024), getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }));
    return Response.json(layout);
  } catch (error) {
    return apiErrorResponse(error);
  }
}
