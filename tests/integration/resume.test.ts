import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { IdGenerator } from "#application/ports/ids";
import type { LatexCompiler } from "#application/ports/latex-compiler";
import type { JobQueue, WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { LatexCompilation } from "#application/resume/latex-compilation";
import { SandboxedLatexCompiler } from "#infrastructure/latex/sandboxed-latex-compiler";
import { ResumeQueries } from "#application/resume/resume-queries";
import { ResumeService } from "#application/resume/resume-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { CV_PARAGRAPHS } from "../fixtures/resume/cv";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { createTestRuntime } from "../support/test-runtime";

const owner = "owner-1";
const stranger = "owner-2";
const ctx: RequestContext = { requestId: "req", clientAddress: "127.0.0.1", actorId: owner };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

async function resumeWorkspace() {
  env = await createTestRuntime();
  const { runtime } = env;
  const cv = await uploadTextDocument(runtime, owner, "maria-cv.txt", CV_PARAGRAPHS.join("\n"));
  const { workspaceId } = await runtime.container.get(WorkspaceService).create(owner, { name: "Maria's CV", type: "Resume Builder", documentIds: [cv] }, ctx);
  await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  const queries = runtime.container.get(ResumeQueries);
  // The resume is drafted by a reactor after the launch: wait until it is ACTIVE, as the screen polls.
  let resume = await queries.ofWorkspace(owner, workspaceId);
  for (let i = 0; i < 100 && resume?.status !== "ACTIVE"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    await settle(runtime);
    resume = await queries.ofWorkspace(owner, workspaceId);
  }
  const workspace = await runtime.container.get(WorkspaceQueries).get(owner, workspaceId);
  return { runtime, cv, workspaceId, workspace, resume: resume!, queries, service: runtime.container.get(ResumeService) };
}

describe("the resume of a Resume Builder workspace", () => {
  it("is drafted from the workspace's CV by the built-in model, each bullet linked to its passage, and compiles", async () => {
    const s = await resumeWorkspace();
    expect(s.resume).toMatchObject({ status: "ACTIVE", latestVersion: 1, workspaceId: s.workspaceId });
    expect(s.workspace.resumeId).toBe(s.resume.id);
    const draft = await s.queries.version(owner, s.resume.id);
    expect(draft).toMatchObject({ version: 1, origin: "draft", author: "built-in" });
    expect(draft.latex).toContain("Maria Gonzalez");
    expect(draft.latex).toContain("\\resumeItem{Led the migration of the invoicing service");
    expect(draft.sources.find((link) => link.quote.startsWith("Led the migration"))).toMatchObject({ documentId: s.cv, pageNumber: 1 });
    const compiled = await s.runtime.container.get(LatexCompilation).compile(owner, draft.latex);
    expect(compiled.ok).toBe(true);
  });

  it("saves an edit that compiles as a new version, refuses one that does not, and restores an older one", async () => {
    const s = await resumeWorkspace();
    const draft = await s.queries.version(owner, s.resume.id);
    const edited = draft.latex.replace("Backend engineer", "Staff backend engineer");
    expect(await s.service.save(owner, s.resume.id, edited, "editor", "user", ctx)).toEqual({ version: 2 });
    await expect(s.service.save(owner, s.resume.id, edited.replace("\\end{document}", ""), "editor", "user", ctx)).rejects.toMatchObject({ code: "RESUME_DOES_NOT_COMPILE" });
    expect(await s.service.restore(owner, s.resume.id, 1, ctx)).toEqual({ version: 3 });
    const versions = await s.queries.versions(owner, s.resume.id);
    expect(versions.map((v) => [v.version, v.origin, v.restoredFrom])).toEqual([
      [3, "restore", 1],
      [2, "editor", null],
      [1, "draft", null],
    ]);
    expect((await s.queries.version(owner, s.resume.id)).latex).toBe(draft.latex);
  });

  it("takes the new content through the conversation's update_resume", async () => {
    const s = await resumeWorkspace();
    const conversationId = s.workspace.conversations[0]!.id;
    const latex = (await s.queries.version(owner, s.resume.id)).latex.replace("Go.", "Go and Rust.");
    expect(await s.service.updateFromConversation(owner, conversationId, latex, true, ctx)).toEqual({ version: 2 });
    await expect(s.service.updateFromConversation(owner, conversationId, "Just words", false, ctx)).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(s.service.updateFromConversation(stranger, conversationId, latex, true, { ...ctx, actorId: stranger })).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
  });

  it("records each Retry of a chat answer's LaTeX on the resume of the conversation's workspace", async () => {
    const s = await resumeWorkspace();
    const conversationId = s.workspace.conversations[0]!.id;
    const first = await s.service.recordRepair(owner, conversationId, { attempt: 1, error: "Misplaced alignment tab character &.", fixed: false, author: "docuchat-extractive" }, ctx);
    const second = await s.service.recordRepair(owner, conversationId, { attempt: 2, error: "Misplaced alignment tab character &.", fixed: true, author: "docuchat-extractive" }, ctx);
    expect([first.attempts, second.attempts]).toEqual([1, 2]);
    await settle(s.runtime);
    expect((await s.queries.get(owner, s.resume.id)).repairAttempts).toBe(2);
    await expect(s.service.recordRepair(stranger, conversationId, { attempt: 1, error: "x", fixed: false, author: "x" }, { ...ctx, actorId: stranger })).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
  });

  it("is not found by another user", async () => {
    const s = await resumeWorkspace();
    await expect(s.queries.get(stranger, s.resume.id)).rejects.toMatchObject({ code: "RESUME_NOT_FOUND" });
    await expect(s.service.save(stranger, s.resume.id, "x", "editor", "user", { ...ctx, actorId: stranger })).rejects.toMatchObject({ code: "RESUME_NOT_FOUND" });
    await expect(s.service.restore(stranger, s.resume.id, 1, { ...ctx, actorId: stranger })).rejects.toMatchObject({ code: "RESUME_NOT_FOUND" });
  });
});

describe("compiling as background jobs", () => {
  it("runs a burst of compiles through the job queue, at most two per user at once", async () => {
    env = await createTestRuntime();
    const compilation = env.runtime.container.get(LatexCompilation);
    const doc = (n: number) => `\\documentclass{article}\\begin{document}Page ${n}\\end{document}`;
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => compilation.compile(owner, doc(n))));
    expect(settled.filter((r) => r.status === "fulfilled" && r.value.ok)).toHaveLength(2);
    // Each refusal counts the compiles running, not the other refused requests in flight with it.
    const busy = { code: "COMPILE_BUSY", message: "You have 2 compiles running; wait for them to finish." };
    expect(settled.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason)).toEqual([expect.objectContaining(busy), expect.objectContaining(busy)]);
    const other = await compilation.compile(stranger, doc(4));
    expect(other.ok).toBe(true);
  });

  it("a download asked for while the preview's compiles run waits for a slot instead of being refused", async () => {
    env = await createTestRuntime();
    const compilation = env.runtime.container.get(LatexCompilation);
    const doc = (n: number) => `\\documentclass{article}\\begin{document}Page ${n}\\end{document}`;
    const previews = Promise.allSettled([1, 2, 3, 4].map((n) => compilation.compile(owner, doc(n))));
    const download = compilation.compile(owner, doc(5), { waitForSlot: true });
    expect((await download).ok).toBe(true);
    await previews;
  });

  it("ends a compile that makes no PDF at once with the compiler's message, not a timeout", async () => {
    env = await createTestRuntime();
    const compilation = env.runtime.container.get(LatexCompilation);
    for (const source of ["\\documentclass{article}\\begin{document}\\end{document}", "\\documentclass{article}\\usepackage{verbatim}\\begin{document}\\verbatiminput{/etc/passwd}\\end{document}"]) {
      const compiled = await compilation.compile(owner, source);
      expect(compiled.ok, source).toBe(false);
      if (!compiled.ok) {
        expect(compiled.error.code, source).toBe("LATEX_ERROR");
        expect(compiled.error.message, source).not.toMatch(/root:/);
      }
    }
    const empty = await compilation.compile(owner, "\\documentclass{article}\\begin{document}\\end{document}");
    if (!empty.ok) expect(empty.error.message).toMatch(/^No pages of output/);
  });

  it("holds a user to their compiles in flight across web processes, and to one running slot while others wait", async () => {
    env = await createTestRuntime({ latexCompiler: new SandboxedLatexCompiler({ limits: { cpuSeconds: 2, wallClockMs: 15_000 } }) });
    const { runtime } = env;
    const compilation = runtime.container.get(LatexCompilation);
    // A second web process: its own LatexCompilation over the same stores and job queue.
    const otherProcess = new LatexCompilation(
      runtime.get<LatexCompiler>(TOKENS.LatexCompiler),
      runtime.get<JobQueue>(TOKENS.JobQueue),
      runtime.get<BlobStore>(TOKENS.BlobStore),
      runtime.get<IdGenerator>(TOKENS.Ids),
    );
    const endless = "\\documentclass{article}\\begin{document}\\def\\x{\\x}\\x\\end{document}";
    const loops = [compilation.compile(owner, endless), otherProcess.compile(owner, endless)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(otherProcess.compile(owner, endless)).rejects.toMatchObject({ code: "COMPILE_BUSY" });
    // The owner's two endless documents hold one slot between them: the stranger's compile does not wait for them.
    const order: string[] = [];
    const stranger_ = otherProcess.compile(stranger, "\\documentclass{article}\\begin{document}Served\\end{document}").then((r) => (order.push("stranger"), r));
    const owners = Promise.all(loops).then((r) => (order.push("owner"), r));
    const [served, stopped] = await Promise.all([stranger_, owners]);
    expect(served.ok).toBe(true);
    expect(stopped.map((r) => (r.ok ? "ok" : r.error.code))).toEqual(["TIMEOUT", "TIMEOUT"]);
    expect(order).toEqual(["stranger", "owner"]);
  }, 90_000);

  it("keeps compiling other users' resumes while one loops forever, and refuses a 10 MB source before queueing it", async () => {
    env = await createTestRuntime({ latexCompiler: new SandboxedLatexCompiler({ limits: { cpuSeconds: 4, wallClockMs: 15_000 } }) });
    const compilation = env.runtime.container.get(LatexCompilation);
    const doc = (body: string) => `\\documentclass{article}\\begin{document}${body}\\end{document}`;
    const endless = compilation.compile(owner, doc("\\def\\x{\\x}\\x"));
    const startedOther = Date.now();
    const other = await compilation.compile(stranger, doc("Still served"));
    const otherMs = Date.now() - startedOther;
    expect(other.ok).toBe(true);
    const stopped = await endless;
    expect(stopped.ok).toBe(false);
    if (!stopped.ok) expect(stopped.error.code).toBe("TIMEOUT");
    // The other compile did not wait for the endless one to be stopped.
    expect(otherMs).toBeLessThan(stopped.ms);
    const huge = await compilation.compile(owner, doc("x".repeat(10 * 1024 * 1024)));
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.error).toMatchObject({ code: "SOURCE_TOO_LARGE", message: expect.stringMatching(/too large/) });
  });
});
