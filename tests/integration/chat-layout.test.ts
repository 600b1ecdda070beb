import { afterEach, describe, expect, it } from "vitest";
import { ChatLayoutService } from "#application/identity/chat-layout-service";
import type { RequestContext } from "#application/shared/request-context";
import { createTestRuntime } from "../support/test-runtime";

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
afterEach(async () => {
  await env?.cleanup();
  env = undefined;
});
const ctx = (userId: string, impersonatorId?: string): RequestContext => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId, impersonatorId });

describe("chat settings kept with the account", () => {
  it("are the defaults until changed, then the same for every later read, per user", async () => {
    env = await createTestRuntime();
    const layouts = env.runtime.container.get(ChatLayoutService);
    expect(await layouts.get("alice")).toMatchObject({ fontSize: "Medium", isChatOnLeft: false, chatbotWidth: 47 });
    expect(await layouts.change("alice", { fontSize: "Small", responseLanguage: "Spanish", chatbotWidth: 70 }, ctx("alice"))).toMatchObject({
      fontSize: "Small",
      responseLanguage: "Spanish",
      chatbotWidth: 70,
      isChatOnLeft: false,
    });
    expect(await layouts.get("alice")).toMatchObject({ fontSize: "Small", responseLanguage: "Spanish", chatbotWidth: 70 });
    expect(await layouts.get("bob")).toMatchObject({ fontSize: "Medium", responseLanguage: "English" });
  });

  it("refuses a bad value with the field named, and an admin acting as the user", async () => {
    env = await createTestRuntime();
    const layouts = env.runtime.container.get(ChatLayoutService);
    await expect(layouts.change("alice", { chatbotWidth: 200 }, ctx("alice"))).rejects.toMatchObject({ code: "VALIDATION", field: "chatbotWidth", message: "The chat is at most 90% wide." });
    await expect(layouts.change("alice", { isChatOnLeft: true }, ctx("alice", "admin-1"))).rejects.toMatchObject({ code: "IMPERSONATION_READ_ONLY" });
    expect(await layouts.get("alice")).toMatchObject({ chatbotWidth: 47, isChatOnLeft: false });
  });
});
