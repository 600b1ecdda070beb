import { describe, expect, it } from "vitest";
import { defineContextModule, streamContexts } from "#application/shared/context-module";
import { contextOfStream } from "#infrastructure/production/kafka-relay";
import { sandboxWorkflows } from "#workflows/temporal/sandbox-workflows";
import { chatLayoutStreamId } from "#domain/identity/chat-layout";
import { modelDefaultsStreamId, keysetStreamId } from "#domain/identity/keyset";
import { userStreamId } from "#domain/identity/user";
import { documentStreamId } from "#domain/library/document";
import { workspaceStreamId } from "#domain/workspace/workspace";
import { conversationStreamId } from "#domain/conversation/conversation";
import { usageId, usageStreamId } from "#domain/billing/usage";
import { subscriptionStreamId } from "#domain/billing/subscription";
import { allProjectors, allWorkflows, contextModules, STREAM_CONTEXTS } from "./index";

describe("context modules", () => {
  it("send every stream to the Kafka topic of the context that owns it, chat layouts included", () => {
    const topicOf = (streamId: string) => contextOfStream(streamId, STREAM_CONTEXTS);
    expect(topicOf(chatLayoutStreamId("u1"))).toBe("identity");
    expect(topicOf(modelDefaultsStreamId("u1"))).toBe("identity");
    expect(topicOf(keysetStreamId("k1"))).toBe("identity");
    expect(topicOf(userStreamId("u1"))).toBe("identity");
    expect(topicOf("email-3f2a")).toBe("identity");
    expect(topicOf(documentStreamId("d1"))).toBe("library");
    expect(topicOf(workspaceStreamId("w1"))).toBe("workspace");
    expect(topicOf(conversationStreamId("c1"))).toBe("conversation");
    expect(topicOf("impersonation-i1")).toBe("administration");
    expect(topicOf("administrator-u1")).toBe("administration");
    expect(topicOf(usageStreamId(usageId("u1", "2026-03")))).toBe("billing");
    expect(topicOf(subscriptionStreamId("u1"))).toBe("billing");
    expect(topicOf("order-o1")).toBe("billing");
    expect(topicOf("referral-u1")).toBe("billing");
    expect(topicOf("community-c1")).toBe("community");
    expect(topicOf("community-name-3f2a")).toBe("community");
    expect(topicOf("resume-r1")).toBe("resume");
  });

  it("refuse a stream category claimed by two contexts", () => {
    const billing = defineContextModule({ name: "billing", streamCategories: ["subscription"], services: [] });
    const thief = defineContextModule({ name: "community", streamCategories: ["subscription"], services: [] });
    expect(() => streamContexts([billing, thief])).toThrow(/claimed by both billing and community/);
  });

  it("give each context a distinct name and each projector a distinct name", () => {
    expect(new Set(contextModules.map((m) => m.name)).size).toBe(contextModules.length);
    expect(new Set(allProjectors.map((p) => p.name)).size).toBe(allProjectors.length);
  });

  it("put every workflow the modules declare into Temporal's sandbox bundle", () => {
    expect(sandboxWorkflows.map((w) => w.name).sort()).toEqual(allWorkflows.map((w) => w.name).sort());
  });
});
