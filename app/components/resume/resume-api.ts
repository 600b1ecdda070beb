/** The browser's calls for the resume (spec 001 §7): compile, load, save through the conversation, restore. */

export type CompileFailure = { code: string; message: string; line: number | null };
export type CompileOutcome = { ok: true; svg: string; pages: string[] } | { ok: false; error: CompileFailure };

export type ResumeVersionSummary = { version: number; origin: "draft" | "editor" | "chat" | "restore"; restoredFrom: number | null; author: string; savedAt: string };
export type ResumeView = {
  resume: { id: string; workspaceId: string; status: "DRAFTING" | "ACTIVE"; latestVersion: number };
  /** sources: where each drafted line came from (document, page, quoted passage). */
  current: { version: number; latex: string; sources: { line: number; documentId: string; pageNumber: number; quote: string }[] } | null;
  versions: ResumeVersionSummary[];
};

const json = (csrfToken: string) => ({ "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken });

async function messageOf(response: Response, fallback: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { message?: string; error?: { message?: string } } | null;
  return body?.error?.message ?? body?.message ?? fallback;
}

/** The server runs at most 2 compiles per user at once (decision 130): the page queues its own rather than be refused. */
const CONCURRENT_COMPILES = 2;
let running = 0;
const queued: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_COMPILES) await new Promise<void>((resolve) => queued.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = queued.shift();
    if (next) next();
    else running--;
  }
}

/** POST /api/convert: the SVG of each page, or the compile error (the server's message). */
export function compileLatex(content: string, csrfToken: string, signal?: AbortSignal): Promise<CompileOutcome> {
  return inTurn(() => (signal?.aborted ? Promise.reject(signal.reason) : postConvert(content, csrfToken, signal)));
}

async function postConvert(content: string, csrfToken: string, signal?: AbortSignal): Promise<CompileOutcome> {
  return outcomeOf(await fetch("/api/convert", { method: "POST", headers: json(csrfToken), body: JSON.stringify({ content }), signal }));
}

/** GET /api/resumes/{id}/preview: a saved version compiled by the server from what it stores (a read, so an impersonating admin sees it too). */
export function previewVersion(resumeId: string, version: number, signal?: AbortSignal): Promise<CompileOutcome> {
  const url = `/api/resumes/${encodeURIComponent(resumeId)}/preview?version=${version}`;
  return inTurn(() => (signal?.aborted ? Promise.reject(signal.reason) : fetch(url, { headers: { Accept: "application/json" }, signal }).then(outcomeOf)));
}

async function outcomeOf(response: Response): Promise<CompileOutcome> {
  const body = (await response.json().catch(() => null)) as { content?: string; pages?: string[]; error?: CompileFailure; message?: string; code?: string } | null;
  if (response.ok && body?.content) return { ok: true, svg: body.content, pages: body.pages ?? [body.content] };
  if (body?.error) return { ok: false, error: body.error };
  return { ok: false, error: { code: body?.code ?? "COMPILE_FAILED", message: body?.message ?? "The resume could not be compiled.", line: null } };
}

export async function loadResume(resumeId: string, signal?: AbortSignal): Promise<ResumeView> {
  const response = await fetch(`/api/resumes/${encodeURIComponent(resumeId)}`, { headers: { Accept: "application/json" }, signal });
  if (!response.ok) throw new Error(await messageOf(response, "The resume could not be loaded."));
  return (await response.json()) as ResumeView;
}

/** PUT /api/conversations/{id}/update_resume (spec 001 §7). */
export async function updateResume(conversationId: string, latex: string, csrfToken: string): Promise<{ version: number }> {
  const response = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/update_resume`, {
    method: "PUT",
    headers: json(csrfToken),
    body: JSON.stringify({ user_query: latex, is_complete_resume: true }),
  });
  if (!response.ok) throw new Error(await messageOf(response, "Failed to update resume"));
  return (await response.json()) as { version: number };
}

export async function restoreVersion(resumeId: string, version: number, csrfToken: string): Promise<{ version: number }> {
  const response = await fetch(`/api/resumes/${encodeURIComponent(resumeId)}`, { method: "POST", headers: json(csrfToken), body: JSON.stringify({ intent: "restore", version }) });
  if (!response.ok) throw new Error(await messageOf(response, "The version could not be restored."));
  return (await response.json()) as { version: number };
}

/** An SVG page as an image URL: shown in <img>, so nothing in it can run. */
export const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** What the resume's editor and the chat tell each other (window events, like the viewer's). */
export const RESUME_UPDATED_EVENT = "docuchat:resume-updated";
export const RESUME_OPEN_IN_EDITOR_EVENT = "docuchat:resume-open-in-editor";
/** The editor's Retry: the chat sends this message ('Fix the latex error in previous response' …). */
export const RESUME_FIX_REQUEST_EVENT = "docuchat:resume-fix-request";
export type ResumeUpdated = { ok: boolean; message: string };
