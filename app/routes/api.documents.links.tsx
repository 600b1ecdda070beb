import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { errorResponse, readJson } from "#app/components/library/api.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

const bodySchema = z.object({
  source: z.enum(["document_url", "website_url", "youtube_link"]),
  url: z.unknown(),
  maxDepth: z.unknown().optional(),
  ocr: z.boolean().optional(),
});

/** POST /api/documents/links {source, url, maxDepth, ocr} → { document_id }. The link rules run again on the server, then the link is looked up. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = bodySchema.safeParse(await readJson(request));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "Invalid URL" }, { status: 400 });
    const { library, linkLookup } = await getServices();
    // Looked up at submit, so a link to nothing is answered now with the spec's message (000 §5), not as a Failed row later.
    await linkLookup.check(parsed.data);
    const { documentId } = await library.registerLink(user.id, { ...parsed.data, url: parsed.data.url }, getRequestContext(request, { actorId: user.id }));
    return Response.json({ document_id: documentId, user_id: user.id }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
