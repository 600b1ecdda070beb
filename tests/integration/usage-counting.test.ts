import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { UsageCounters } from "#application/billing/usage-counters";
import { ConversationService } from "#application/conversation/conversation-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { PLANS } from "#domain/billing/plans";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
afterEach(async () => {
  await env?.cleanup();
  env = undefined;
});

const ctx: RequestContext = { requestId: "r", clientAddress: "127.0.0.1", actorId: "alice" };

async function drain(stream: AsyncGenerator<unknown>) {
  for await (const _ of stream) {
    // the answer streams; only its end matters here
  }
}

/** A workspace of one text document, launched, and its first conversation. */
async function chatAbout(runtime: Awaited<ReturnType<typeof createTestRuntime>>["runtime"], name: string, text: string) {
  const doc = await uploadTextDocument(runtime, "alice", `${name.toLowerCase()}.txt`, text);
  const { workspaceId } = await runtime.container.get(WorkspaceService).create("alice", { name, type: "Conversation", documentIds: [doc] }, ctx);
  await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(runtime);
  return (await runtime.container.get(WorkspaceQueries).get("alice", workspaceId)).session.activeConversationId!;
}

describe("usage counted by the contexts that spend it", () => {
  it("counts an upload, its pages, a workspace and a question answered by the built-in model; regenerating counts nothing", async () => {
    env = await createTestRuntime();
    const { runtime } = env;
    const doc = await uploadTextDocument(runtime, "alice", "tea.txt", "Green tea is not oxidised. Black tea is fully oxidised.");
    const { workspaceId } = await runtime.container.get(WorkspaceService).create("alice", { name: "Tea", type: "Conversation", documentIds: [doc] }, ctx);
    await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
    await settle(runtime);
    const ws = await runtime.container.get(WorkspaceQueries).get("alice", workspaceId);
    const conversations = runtime.container.get(ConversationService);
    let questionId = "";
    for await (const event of conversations.ask("alice", ws.session.activeConversationId!, { text: "Is black tea oxidised?" }, ctx)) {
      if (event.type !== "text") questionId = event.metadata.question_id;
    }
    await drain(conversations.ask("alice", ws.session.activeConversationId!, { text: "", regenerateQuestionId: questionId }, ctx));

    const usage = await runtime.container.get(UsageCounters).all("alice", env.clock.now());
    expect(usage.uploads.monthly.used).toBe(1);
    expect(usage.pages.monthly.used).toBe(1);
    expect(usage.workspaces.monthly.used).toBe(1);
    expect(usage.messages).toMatchObject({ daily: { used: 1, limit: 100 }, monthly: { used: 1, limit: 500 } });
  });

  it("does not count one of our suggestions the model declines, and counts the same words typed (issue 44 item 2)", async () => {
    env = await createTestRuntime();
    const { runtime } = env;
    const conversationId = await chatAbout(runtime, "Tea", "Green tea is not oxidised. Black tea is fully oxidised.");
    const conversations = runtime.container.get(ConversationService);
    await drain(conversations.ask("alice", conversationId, { text: "Who won the 1998 chess olympiad?", suggested: true }, ctx));
    expect((await runtime.container.get(UsageCounters).usage("alice", "messages", env.clock.now())).monthly.used).toBe(0);
    await drain(conversations.ask("alice", conversationId, { text: "Who won the 1998 chess olympiad?" }, ctx));
    expect((await runtime.container.get(UsageCounters).usage("alice", "messages", env.clock.now())).monthly.used).toBe(1);
  });

  it("refuses the question past the plan's messages with the conversation's error, and gives nothing away", async () => {
    const limits = { ...PLANS.evergreen.limits, messages: { daily: null, monthly: 1 } };
    env = await createTestRuntime({ allowances: { limits: async () => limits } });
    const { runtime } = env;
    const conversationId = await chatAbout(runtime, "Bees", "Bees communicate through a waggle dance.");
    const conversations = runtime.container.get(ConversationService);
    await drain(conversations.ask("alice", conversationId, { text: "How do bees talk?" }, ctx));
    await expect(drain(conversations.ask("alice", conversationId, { text: "And ants?" }, ctx))).rejects.toMatchObject({
      code: "MESSAGE_CREATION_FAILURE",
      message: "You have used the 1 messages of your plan this month.",
    });
    expect((await runtime.container.get(UsageCounters).usage("alice", "messages", env.clock.now())).monthly.used).toBe(1);
  });
});
