import type { TokenGrant } from "#application/identity/access-tokens";
import type { Citation as ModelCitation } from "#application/ports/language-model";
import type { RequestContext } from "#application/shared/request-context";
import type { Services } from "#app/utils/services.server";
import type { z } from "zod";
import { type Answer, type Citation, Problem } from "./schemas";

/** What an answer's model failing before any text answers: the question is kept, its answer interrupted and not counted (issue 44). */
export const MODEL_FAILURES = {
  502: { description: "The workspace's model failed before answering", schema: Problem },
  503: { description: "The product's model is overloaded; ask again after Retry-After seconds", schema: Problem },
  504: { description: "The workspace's model did not start answering in time", schema: Problem },
};

/** Where a citation opens: the document's viewer, at its page. */
export function viewerUrl(origin: string, documentId: string, pageNumber: number): string {
  return `${origin}/document/${encodeURIComponent(documentId)}?page=${pageNumber}`;
}

export function citationsOut(citations: readonly ModelCitation[], names: ReadonlyMap<string, string>, origin: string): z.infer<typeof Citation>[] {
  return citations.map((c) => ({
    document_id: c.documentId,
    document_name: names.get(c.documentId) ?? "Untitled document",
    page_number: c.pageNumber,
    quote: c.quote ?? null,
    url: viewerUrl(origin, c.documentId, c.pageNumber),
  }));
}

export interface Asking {
  grant: TokenGrant;
  ctx: RequestContext;
  services: Services;
  origin: string;
  signal?: AbortSignal;
}

/**
 * Asks through the conversation service the pages use (plan limits, the
 * access policy at question time, the impersonation guard), yielding the
 * answer's text as it streams, then the finished answer with its citations.
 */
export async function* askStreaming(
  { grant, ctx, services, origin, signal }: Asking,
  conversationId: string,
  workspaceNames: ReadonlyMap<string, string>,
  input: { question: string; language?: string },
): AsyncGenerator<{ type: "text"; text: string } | { type: "done"; answer: z.infer<typeof Answer>; usage: { inputTokens: number; outputTokens: number } | null }> {
  let text = "";
  for await (const event of services.conversations.ask(grant.ownerId, conversationId, { text: input.question, language: input.language }, ctx, signal)) {
    if (event.type === "text") {
      text += event.text;
      yield event;
      continue;
    }
    const meta = event.metadata;
    yield {
      type: "done",
      answer: {
        message_id: meta.message_id,
        question_id: meta.question_id,
        conversation_id: meta.conversation_id,
        text,
        citations: citationsOut(meta.citations, workspaceNames, origin),
        model: meta.model,
      },
      usage: meta.usage ?? null,
    };
  }
}

/** The whole answer at once, with the model's token counts when it reported them. */
export async function askOnce(asking: Asking, conversationId: string, names: ReadonlyMap<string, string>, input: { question: string; language?: string }) {
  for await (const event of askStreaming(asking, conversationId, names, input)) if (event.type === "done") return event;
  throw new Error("The answer ended without its metadata.");
}

/**
 * Server-Sent Events from an async source. Its first event is awaited before
 * the status is sent, so a refusal or a model failing before any text answers
 * its own status (issue 44 item 4); a failure after that becomes an `error` event.
 */
export async function sse<T>(source: AsyncIterable<T>, write: (event: T) => { event?: string; data: unknown } | null, onError: (error: unknown) => Promise<{ event?: string; data: unknown }>): Promise<Response> {
  const encoder = new TextEncoder();
  const frame = (f: { event?: string; data: unknown }) => encoder.encode(`${f.event ? `event: ${f.event}\n` : ""}data: ${typeof f.data === "string" ? f.data : JSON.stringify(f.data)}\n\n`);
  const events = source[Symbol.asyncIterator]();
  const first = await events.next();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (let next = first; !next.done; next = await events.next()) {
          const f = write(next.value);
          if (f) controller.enqueue(frame(f));
        }
      } catch (error) {
        controller.enqueue(frame(await onError(error)));
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
}

export const documentNames = (documents: readonly { documentId: string; documentName: string }[]) => new Map(documents.map((d) => [d.documentId, d.documentName]));
