/**
 * The answer stream (ARCHITECTURE §6): the answer's text, then the marker
 * `[END]`, then one JSON object (the message's metadata, or `{error}`). One
 * module writes and reads it, for the chat and for a keyset's try-out; it is
 * plain TypeScript, so the browser bundle uses it too.
 */
export const END_MARKER = "[END]";
const ESCAPED = "[END\u200b]";

/**
 * Documents may contain the literal text "[END]", and the built-in model
 * quotes documents: such text must not end the stream early. The guard holds
 * back the last few characters of each chunk so a marker split across chunks
 * is caught too.
 */
export class EndMarkerGuard {
  private pending = "";

  push(text: string): string {
    const combined = (this.pending + text).replaceAll(END_MARKER, ESCAPED);
    const keep = END_MARKER.length - 1;
    this.pending = combined.slice(-keep);
    return combined.slice(0, combined.length - this.pending.length);
  }

  flush(): string {
    const rest = this.pending.replaceAll(END_MARKER, ESCAPED);
    this.pending = "";
    return rest;
  }
}

/** What one event of the source becomes on the wire: answer text, or the closing JSON object. */
export type AnswerStreamPart = { text: string } | { end: unknown };

/**
 * The response body: the first event (already pulled, so refusals could
 * still answer as JSON errors) and then the rest as they come. A failure
 * mid-stream ends it with `{error}` from `failure`; a reader that goes away
 * stops the source.
 */
export function answerStreamBody<Event>(
  first: IteratorResult<Event>,
  events: AsyncIterator<Event>,
  part: (event: Event) => AnswerStreamPart,
  failure: (error: unknown) => { code: string; message: string },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const write = (controller: ReadableStreamDefaultController<Uint8Array>, event: Event) => {
    const piece = part(event);
    controller.enqueue(encoder.encode("text" in piece ? piece.text : `${END_MARKER}${JSON.stringify(piece.end)}`));
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else write(controller, first.value);
    },
    async pull(controller) {
      let next: IteratorResult<Event>;
      try {
        next = await events.next();
      } catch (error) {
        controller.enqueue(encoder.encode(`\n${END_MARKER}${JSON.stringify({ error: failure(error) })}`));
        controller.close();
        return;
      }
      if (next.done) controller.close();
      else write(controller, next.value);
    },
    async cancel() {
      await events.return?.();
    },
  });
}

/** The reader's side: what has arrived so far, split into the answer text and (once complete) the JSON text. */
export function splitAnswerStream(buffer: string): { text: string; meta: string | null } {
  const at = buffer.indexOf(END_MARKER);
  if (at >= 0) return { text: buffer.slice(0, at).replace(/\n$/, ""), meta: buffer.slice(at + END_MARKER.length) };
  // Hide a marker that is still arriving ("[EN…").
  for (let k = END_MARKER.length - 1; k > 0; k--) {
    if (buffer.endsWith(END_MARKER.slice(0, k))) return { text: buffer.slice(0, -k), meta: null };
  }
  return { text: buffer, meta: null };
}
