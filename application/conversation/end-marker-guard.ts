/** The marker that ends a streamed answer's text (ARCHITECTURE §6). */
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
