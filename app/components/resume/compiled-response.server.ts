import type { Compiled } from "#application/resume/latex-compilation";

/**
 * A compile's answer to the page (spec 001 §7): 200 {content: first page's SVG,
 * pages: every page's SVG, page_count}, or 422 {error: {code, message, line}}
 * when it does not compile. Compiles are never cached: they are the user's text.
 */
export function compiledResponse(compiled: Compiled): Response {
  const headers = { "Cache-Control": "private, no-store" };
  if (!compiled.ok) {
    const { code, message, line } = compiled.error;
    return Response.json({ error: { code, message, line } }, { status: 422, headers });
  }
  return Response.json({ content: compiled.svgPages[0], pages: compiled.svgPages, page_count: compiled.pageCount }, { headers });
}
