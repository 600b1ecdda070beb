import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { ConversationService } from "#application/conversation/conversation-service";
import { KeysetService } from "#application/identity/keyset-service";
import { ResumeQueries } from "#application/resume/resume-queries";
import { ResumeService } from "#application/resume/resume-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { writeStream } from "#infrastructure/ai/testing/provider-wire";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { CV_PARAGRAPHS } from "../fixtures/resume/cv";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { createTestRuntime } from "../support/test-runtime";

/**
 * The resume with a user's own model: an OpenAI-compatible server on
 * 127.0.0.1 replays what a model would write — the draft (it rewrites the
 * summary of the outlined draft it is given) and an edit by chat (it shortens
 * the summary of the resume it is given and answers with the whole document).
 */
const HOST = "llm.example.test";
const KEY = "sk-local-resume-1a2b3c";
const owner = "maria";
const ctx: RequestContext = { requestId: "r", clientAddress: "127.0.0.1", actorId: owner };

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let site: LocalSite | undefined;
const prompts: string[] = [];
afterEach(async () => {
  await env?.cleanup();
  await site?.close();
  env = undefined;
  site = undefined;
  prompts.length = 0;
});

/** The last whole LaTeX document the prompt holds. */
const lastDocument = (text: string) => {
  const start = text.lastIndexOf("\\documentclass");
  const end = text.indexOf("\\end{document}", start);
  return start < 0 || end < 0 ? null : text.slice(start, end + "\\end{document}".length);
};

/** What the replayed model writes for each request it gets. */
function replay(prompt: string): string {
  const resume = lastDocument(prompt);
  if (!resume) return "I need a resume to edit.";
  if (prompt.includes("Write my resume as one complete LaTeX document")) {
    return `\`\`\`latex\n${resume.replace("Backend engineer with 8 years", "Payments engineer with 8 years")}\n\`\`\``;
  }
  if (prompt.includes("Request: Shorten my summary")) {
    return `I shortened the summary.\n\n\`\`\`latex\n${resume.replace(/\\small\{Backend engineer[^}]*\}/, "\\small{Payments engineer, TypeScript and Go.}")}\n\`\`\``;
  }
  return "Unexpected request.";
}

async function setUp() {
  site = await startLocalSite((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: [{ id: "llama3.2", object: "model" }] }));
      }
      const request = JSON.parse(body) as { messages: { content: string | { text?: string }[] }[] };
      const prompt = request.messages.map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join(""))).join("\n");
      prompts.push(prompt);
      const answer = replay(prompt);
      writeStream("openai", res, answer.match(/[\s\S]{1,400}/g) ?? [answer], { input: 900, output: 300 }, "llama3.2");
    });
  }, HOST);
  env = await createTestRuntime({ egress: egressFor(HOST) });
  const keyset = await env.runtime.container.get(KeysetService).add(owner, { name: "My Ollama", apiKey: KEY, provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: `${site.origin}/v1` }, ctx);
  return { runtime: env.runtime, keysetId: keyset.keysetId };
}

async function activeResume(runtime: NonNullable<typeof env>["runtime"], workspaceId: string) {
  const queries = runtime.container.get(ResumeQueries);
  for (let i = 0; i < 150; i++) {
    await settle(runtime);
    const resume = await queries.ofWorkspace(owner, workspaceId);
    if (resume?.status === "ACTIVE") return queries.version(owner, resume.id);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the resume was never drafted");
}

describe("the resume with a user's own model", () => {
  it("is drafted by the model from the documents, kept because it compiles", async () => {
    const { runtime, keysetId } = await setUp();
    const cv = await uploadTextDocument(runtime, owner, "cv.txt", CV_PARAGRAPHS.join("\n"));
    const choice = { keysetId, model: "llama3.2" };
    const { workspaceId } = await runtime.container
      .get(WorkspaceService)
      .create(owner, { name: "CV", type: "Resume Builder", documentIds: [cv], chatPreference: { text: choice, image: choice, embedding: null } }, ctx);
    await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
    const draft = await activeResume(runtime, workspaceId);
    expect(draft.author).toBe("openai-compatible:llama3.2");
    expect(draft.latex).toContain("Payments engineer with 8 years");
    expect(prompts[0]).toContain("Led the migration of the invoicing service");
  });

  it("edits the resume by chat: the answer's LaTeX block saved through update_resume becomes the next version", async () => {
    const { runtime, keysetId } = await setUp();
    const cv = await uploadTextDocument(runtime, owner, "cv.txt", CV_PARAGRAPHS.join("\n"));
    const { workspaceId } = await runtime.container.get(WorkspaceService).create(owner, { name: "CV", type: "Resume Builder", documentIds: [cv] }, ctx);
    await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
    const draft = await activeResume(runtime, workspaceId);
    expect(draft.author).toBe("built-in");
    const workspace = await runtime.container.get(WorkspaceQueries).get(owner, workspaceId);
    await runtime.container.get(WorkspaceService).changeChatPreference(owner, workspaceId, { text: { keysetId, model: "llama3.2" }, image: workspace.chatPreference.image, embedding: null }, ctx);

    const conversationId = workspace.conversations[0]!.id;
    let answer = "";
    for await (const event of runtime.container.get(ConversationService).ask(owner, conversationId, { text: "Shorten my summary" }, ctx)) {
      if (event.type === "text") answer += event.text;
    }
    expect(prompts.at(-1)).toContain(draft.latex.trimEnd());
    expect(answer).toMatch(/^I shortened the summary\./);
    const saved = await runtime.container.get(ResumeService).updateFromConversation(owner, conversationId, answer, false, ctx);
    expect(saved.version).toBe(2);
    const edited = await runtime.container.get(ResumeQueries).version(owner, draft.resumeId);
    expect(edited).toMatchObject({ origin: "chat", version: 2 });
    expect(edited.latex).toContain("\\small{Payments engineer, TypeScript and Go.}");
  });
});
