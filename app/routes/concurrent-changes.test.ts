import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import { type EventStore, WrongExpectedVersionError } from "#application/ports/event-store";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { signedInUser } from "../../tests/support/route-session";
import { settle, uploadTextDocument } from "../../tests/support/library-fixtures";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { action as workspaceAction } from "./workspace.$id";

/**
 * Writers racing on one aggregate (issue 30 item 6): every answer is the
 * change made, or 409 with the message the page shows; never a 500.
 */
const TRY_AGAIN = "Someone else changed this; try again.";
let env: Awaited<ReturnType<typeof createTestRuntime>>;
let owner: { id: string; cookie: string };
let workspaceId = "";

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  owner = await signedInUser(env.runtime, "racer", { csrf: true });
  const document = await uploadTextDocument(env.runtime, owner.id, "notes.txt", "Racing notes.");
  ({ workspaceId } = await env.runtime.container
    .get(WorkspaceService)
    .create(owner.id, { name: "Contested", type: "Conversation", documentIds: [document] }, { requestId: "race", clientAddress: "127.0.0.1", actorId: owner.id }));
  await settle(env.runtime);
}, 60_000);
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

async function rename(name: string): Promise<{ status: number; message: string }> {
  const body = new FormData();
  body.set("csrf", "csrf-token");
  body.set("intent", "rename");
  body.set("name", name);
  body.set("description", "");
  const request = new Request(`http://localhost/workspace/${workspaceId}`, { method: "POST", body, headers: { Cookie: owner.cookie, Origin: "http://localhost" } });
  try {
    const answer = (await workspaceAction({ request, params: { id: workspaceId }, context: {} })) as { data?: { message?: string }; init?: { status?: number } | null };
    return { status: answer.init?.status ?? 200, message: answer.data?.message ?? "" };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, message: await thrown.text() };
    return { status: 500, message: String(thrown) };
  }
}

describe("renaming one workspace from many places at once", () => {
  it("answers 100 parallel renames with the change or a 409 to try again, never a 500", async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => rename(`Name ${i}`)));
    for (const answer of answers) {
      expect([200, 409], answer.message).toContain(answer.status);
      if (answer.status === 409) expect(answer.message).toBe(TRY_AGAIN);
    }
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
  });

  it("answers 409 with the message the page shows when another writer wins every attempt", async () => {
    const store = env.runtime.get<EventStore>(TOKENS.EventStore);
    const append = store.append.bind(store);
    // Another process appends to the stream just before each of ours.
    store.append = async (streamId, events, expected) => {
      if (streamId === `workspace-${workspaceId}`) throw new WrongExpectedVersionError(streamId, expected, 999);
      return append(streamId, events, expected);
    };
    try {
      expect(await rename("Lost race")).toEqual({ status: 409, message: TRY_AGAIN });
    } finally {
      store.append = append;
    }
  });
});
