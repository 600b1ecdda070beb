import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { buildTranscript, transcriptToText } from "#application/conversation/conversation-transcript";
import { transcriptToPdf } from "#infrastructure/export/transcript-pdf";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/conversations/{id}/export?format=pdf|txt — the chat-support popover's Download tab. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const format = new URL(request.url).searchParams.get("format") === "pdf" ? "pdf" : "txt";
    const { conversations, workspaceQueries } = await getServices();
    const { conversation, messages } = await conversations.get(user.id, params.id ?? "");
    await recordViewWhileImpersonating(request, user, "conversation", conversation.id, conversation.title || "New Chat");
    const workspace = await workspaceQueries.get(user.id, conversation.workspaceId);
    const transcript = buildTranscript(conversation, messages, new Map(workspace.documents.map((d) => [d.documentId, d.documentName])));
    const base = (transcript.title.replace(/[^\w\- ]+/g, "").trim() || "conversation").slice(0, 60);
    const body = format === "pdf" ? await transcriptToPdf(transcript) : Buffer.from(transcriptToText(transcript), "utf8");
    return new Response(new Uint8Array(body), {
      headers: {
        "Content-Type": format === "pdf" ? "application/pdf" : "text/plain; charset=utf-8",
        "Content-Disposition": `attachment; filename="${base}.${format}"`,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
