import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse, toApiDocument } from "#app/components/library/api.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

const MAX_TIMEOUT_S = 30;
const POLL_MS = 500;
const FINAL = new Set(["ACTIVE", "FAILED"]);

/**
 * GET /api/documents/{id}/status/{status}?timeout=30 — waits (at most 30 s)
 * until the document reaches the status, checking the read model every 500 ms.
 * Answers { reached, status, document }; a document that ends in another final
 * state (e.g. FAILED while waiting for ACTIVE) answers at once.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const wanted = (params.status ?? "").toUpperCase();
  const requested = Number(new URL(request.url).searchParams.get("timeout") ?? MAX_TIMEOUT_S);
  const timeoutMs = (Number.isFinite(requested) ? Math.min(MAX_TIMEOUT_S, Math.max(0, requested)) : MAX_TIMEOUT_S) * 1000;
  try {
    const { libraryQueries } = await getServices();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const document = await libraryQueries.getDocument(user.id, params.id ?? "");
      const reached = document.status === wanted;
      if (reached || FINAL.has(document.status) || Date.now() >= deadline || request.signal.aborted) {
        return Response.json(
          { reached, status: document.status, document: toApiDocument(document) },
          { headers: { "Cache-Control": "private, no-store" } },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
    }
  } catch (error) {
    return errorResponse(error);
  }
}
