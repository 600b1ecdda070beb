/**
 * A route's action reads one kind of body. A page's action reads a form; a
 * body that is not one (text, JSON, a broken multipart, nothing) is the
 * sender's mistake, answered 415 or 400 with what the route takes, before the
 * action's `request.formData()` would throw and answer 500 (issue 44 item 14,
 * docs/decisions/270).
 */
export const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;

/** What a route module may export: the media types its action reads (replacing the default). */
export type BodyTypesExport = { bodyTypes?: readonly string[] };

/**
 * The media types a request's body must have to reach the action, or null when
 * the route checks its own body: an `/api` route (or `/mcp`) answers its own
 * errors in its own shape, and a route without an action reads no body.
 */
export function acceptedBodyTypes(module: BodyTypesExport & { action?: unknown }, pathname: string): readonly string[] | null {
  if (typeof module.action !== "function") return null;
  if (module.bodyTypes) return module.bodyTypes;
  return /^\/(api\/|mcp(\/|\.data$|$))/.test(pathname) ? null : FORM_TYPES;
}

/** The media type of a Content-Type header, lowercased, without its parameters ("" when there is none). */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

export const isFormType = (mediaType: string) => (FORM_TYPES as readonly string[]).includes(mediaType);

export type BodyProblem = { status: 400 | 415; title: string; detail: string; accepts: readonly string[] };

const describe = (types: readonly string[]) =>
  types.every((type) => isFormType(type)) ? `a form (${types.join(" or ")})` : types.join(" or ");

/** 415 for a body of a type the route does not read, or null when the type is one it reads. */
export function unsupportedBodyType(accepts: readonly string[], contentType: string | null | undefined): BodyProblem | null {
  const type = mediaTypeOf(contentType);
  if (accepts.includes(type)) return null;
  return {
    status: 415,
    title: "Unsupported Media Type",
    detail: `This address accepts ${describe(accepts)}; the request sent ${type ? type : "no Content-Type"}.`,
    accepts,
  };
}

/** 400 when a body that says it is a form cannot be read as one (a broken multipart, say), or null when it can. */
export async function unreadableForm(body: ArrayBuffer, contentType: string, accepts: readonly string[]): Promise<BodyProblem | null> {
  try {
    await new Response(body, { headers: { "Content-Type": contentType } }).formData();
    return null;
  } catch {
    return unreadableFormProblem(accepts);
  }
}

export const unreadableFormProblem = (accepts: readonly string[]): BodyProblem => ({
  status: 400,
  title: "Bad Request",
  detail: `The form could not be read. This address accepts ${describe(accepts)}.`,
  accepts,
});
