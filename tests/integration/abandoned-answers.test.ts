import { afterEach, describe, expect, it } from "vitest";
import pino from "pino";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { AbandonedAnswers, LEASE_TIMEOUT_MS } from "#application/conversation/abandoned-answers";
import { ConversationService } from "#application/conversation/conversation-service";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { loadConfig } from "#infrastructure/config/config";
import { type AppRuntime, createRuntime } from "#infrastructure/container";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let web: AppRuntime | undefined;
afterEach(async () => {
  await web?.stop();
  await env?.cleanup();
  web = env = undefined;
});
const ctx: RequestContext = { requestId: "r", clientAddress: "127.0.0.1", actorId: "alice" };

/** A conversation whose answer a web process began and never finished; the background process is `env`. */
async function answerBegunByAWebProcess() {
  env = await createTestRuntime();
  const doc = await uploadTextDocument(env.runtime, "alice", "bees.txt", "Bees communicate through a waggle dance that points to flowers.");
  const { workspaceId } = await env.runtime.container.get(WorkspaceService).create("alice", { name: "Bees", type: "Conversation", documentIds: [doc] }, ctx);
  await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(env.runtime);
  const conversationId = (await env.runtime.container.get(WorkspaceQueries).get("alice", workspaceId)).session.activeConversationId!;
  const config = loadConfig({ DATA_DIR: env.dataDir, APP_SECRET: "test-secret-test-secret-test-secret!" });
  web = await createRuntime(config, { role: "web", processId: "web-1", logger: pino({ level: "silent" }), builtInEmbeddings: false });
  // The answer streams its first words, then its process stops before the end.
  const stream = web.container.get(ConversationService).ask("alice", conversationId, { text: "How do bees communicate?" }, ctx);
  expect((await stream.next()).value).toMatchObject({ type: "text" });
  await settle(env.runtime);
  return { conversationId, conversations: env.runtime.container.get(ConversationService), abandoned: env.runtime.container.get(AbandonedAnswers) };
}

const answerTo = async (stream: AsyncGenerator<{ type: string }>) => {
  for await (const event of stream) if (event.type === "end") return event;
  return null;
};

describe("an answer whose process is gone", () => {
  it("ends as interrupted once the killed process's lease stands still, and the conversation takes the next question", async () => {
    const { conversationId, conversations, abandoned } = await answerBegunByAWebProcess();
    // While the web process may still be alive, its answer is left to it.
    expect(await abandoned.sweep(0)).toBe(0);
    await expect(answerTo(conversations.ask("alice", conversationId, { text: "Do bees dance?" }, ctx))).rejects.toThrow(
      "Please wait until the current answer has finished.",
    );
    // Killed: its lease is never renewed again.
    expect(await abandoned.sweep(LEASE_TIMEOUT_MS)).toBe(1);
    await settle(env!.runtime);
    expect((await conversations.messages("alice", conversationId)).at(-1)).toMatchObject({ sender: "BOT", status: "interrupted" });
    expect(await answerTo(conversations.ask("alice", conversationId, { text: "Do bees dance?" }, ctx))).toMatchObject({ type: "end" });
  });

  it("ends at the next sweep when the process stopped and gave its lease back", async () => {
    const { conversationId, conversations, abandoned } = await answerBegunByAWebProcess();
    await web!.stop();
    web = undefined;
    expect(await abandoned.sweep(0)).toBe(1);
    expect(await answerTo(conversations.ask("alice", conversationId, { text: "Do bees dance?" }, ctx))).toMatchObject({ type: "end" });
  });
});
