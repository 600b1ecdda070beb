import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import { ResumeQueries } from "#application/resume/resume-queries";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { CV_PARAGRAPHS } from "../../tests/fixtures/resume/cv";
import { settle, uploadTextDocument } from "../../tests/support/library-fixtures";
import { signedInUser } from "../../tests/support/route-session";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { action as convert } from "./api.convert";
import { action as updateResume } from "./api.conversations.$id.update_resume";
import { loader as downloadPdf } from "./api.resumes.$id.pdf";
import { loader as getResume } from "./api.resumes.$id";
import { loader as previewResume } from "./api.resumes.$id.preview";

/** The resume's HTTP routes (spec 001 §7) on the embedded runtime: who may call them, and what they answer. */
const ctx = { requestId: "resume-routes", clientAddress: "127.0.0.1" };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
const users: Record<"maria" | "eve", { id: string; cookie: string }> = {} as never;
let resumeId = "";
let conversationId = "";

const json = (cookie: string, method: string, body: unknown, csrf = true) =>
  new Request("http://localhost/api", {
    method,
    headers: { Cookie: cookie, "Content-Type": "application/json", ...(csrf ? { "X-CSRF-Token": "csrf-token" } : {}) },
    body: JSON.stringify(body),
  });
const get = (cookie: string, url = "http://localhost/api") => new Request(url, { headers: { Cookie: cookie } });
const asResponse = (value: unknown) => value as Response;

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  users.maria = await signedInUser(env.runtime, "maria", { csrf: true });
  users.eve = await signedInUser(env.runtime, "eve", { csrf: true });
  const cv = await uploadTextDocument(env.runtime, users.maria.id, "cv.txt", CV_PARAGRAPHS.join("\n"));
  const { workspaceId } = await env.runtime.container.get(WorkspaceService).create(users.maria.id, { name: "CV", type: "Resume Builder", documentIds: [cv] }, { ...ctx, actorId: users.maria.id });
  await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  for (let i = 0; i < 100; i++) {
    await settle(env.runtime);
    const resume = await env.runtime.container.get(ResumeQueries).ofWorkspace(users.maria.id, workspaceId);
    if (resume?.status === "ACTIVE") {
      resumeId = resume.id;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  conversationId = (await env.runtime.container.get(WorkspaceQueries).get(users.maria.id, workspaceId)).conversations[0]!.id;
});
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("the resume routes", () => {
  it("POST /api/convert answers the SVG of the first page, or the error object, and needs the CSRF header", async () => {
    const doc = "\\documentclass{article}\\begin{document}Hello\\end{document}";
    const ok = asResponse(await convert({ request: json(users.maria.cookie, "POST", { content: doc }), params: {}, context: {} }));
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { content: string; pages: string[]; page_count: number };
    expect(body.content).toMatch(/<svg /);
    expect(body.page_count).toBe(1);
    const bad = asResponse(await convert({ request: json(users.maria.cookie, "POST", { content: doc.replace("Hello", "\\oops") }), params: {}, context: {} }));
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: { code: "LATEX_ERROR", message: expect.stringMatching(/Undefined control sequence/), line: 1 } });
    const forged = asResponse(await convert({ request: json(users.maria.cookie, "POST", { content: doc }, false), params: {}, context: {} }).catch((e: unknown) => e));
    expect(forged.status).toBe(403);
  });

  it("GET /api/resumes/{id} gives the owner the resume and its versions, anyone else a 404", async () => {
    const mine = asResponse(await getResume({ request: get(users.maria.cookie), params: { id: resumeId }, context: {} }));
    const body = (await mine.json()) as { resume: { status: string }; current: { latex: string; sources: unknown[] }; versions: unknown[] };
    expect(body.resume.status).toBe("ACTIVE");
    expect(body.current.latex).toContain("Maria Gonzalez");
    expect(body.current.sources.length).toBeGreaterThan(5);
    expect(body.versions).toHaveLength(1);
    const theirs = asResponse(await getResume({ request: get(users.eve.cookie), params: { id: resumeId }, context: {} }));
    expect(theirs.status).toBe(404);
    const pdf = asResponse(await downloadPdf({ request: get(users.eve.cookie), params: { id: resumeId }, context: {} }));
    expect(pdf.status).toBe(404);
  });

  it("GET /api/resumes/{id}/preview compiles the saved version for viewing, for its owner only", async () => {
    const preview = asResponse(await previewResume({ request: get(users.maria.cookie, `http://localhost/api/resumes/${resumeId}/preview?version=1`), params: { id: resumeId }, context: {} }));
    expect(preview.status).toBe(200);
    const body = (await preview.json()) as { content: string; page_count: number };
    expect(body.content).toMatch(/<svg /);
    expect(body.page_count).toBeGreaterThan(0);
    const missing = asResponse(await previewResume({ request: get(users.maria.cookie, `http://localhost/api/resumes/${resumeId}/preview?version=9`), params: { id: resumeId }, context: {} }));
    expect(missing.status).toBe(404);
    const theirs = asResponse(await previewResume({ request: get(users.eve.cookie), params: { id: resumeId }, context: {} }));
    expect(theirs.status).toBe(404);
  });

  it("PUT update_resume saves a compiling resume as the next version; a foreign conversation is a 404", async () => {
    const current = ((await asResponse(await getResume({ request: get(users.maria.cookie), params: { id: resumeId }, context: {} })).json()) as { current: { latex: string } }).current.latex;
    const edited = current.replace("Berlin, Germany", "Hamburg, Germany");
    const saved = asResponse(await updateResume({ request: json(users.maria.cookie, "PUT", { user_query: edited, is_complete_resume: true }), params: { id: conversationId }, context: {} }));
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ ok: true, version: 2 });
    const broken = asResponse(await updateResume({ request: json(users.maria.cookie, "PUT", { user_query: edited.replace("\\end{document}", ""), is_complete_resume: true }), params: { id: conversationId }, context: {} }));
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({ code: "RESUME_DOES_NOT_COMPILE" });
    const foreign = asResponse(await updateResume({ request: json(users.eve.cookie, "PUT", { user_query: edited, is_complete_resume: true }), params: { id: conversationId }, context: {} }));
    expect(foreign.status).toBe(404);

    const pdf = asResponse(await downloadPdf({ request: get(users.maria.cookie), params: { id: resumeId }, context: {} }));
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toBe('attachment; filename="resume-v2.pdf"');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
  });
});
