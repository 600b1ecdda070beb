import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { signedInUser } from "../../tests/support/route-session";
import { uploadTextDocument } from "../../tests/support/library-fixtures";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { action as createWorkspace } from "./_app.workspace.create";

/** The New Workspace wizard's form, posted with another user's document (issue 44 item 15). */
let env: Awaited<ReturnType<typeof createTestRuntime>>;

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
}, 60_000);
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("creating a workspace from the wizard", () => {
  it("answers 404 for another user's document and creates nothing", async () => {
    const ada = await signedInUser(env.runtime, "adaowner");
    const eve = await signedInUser(env.runtime, "evecreator", { csrf: true });
    const adasDocument = await uploadTextDocument(env.runtime, ada.id, "diary.txt", "Dear diary.");
    const body = new FormData();
    body.set("csrf", "csrf-token");
    body.set("name", "Borrowed");
    body.set("description", "");
    body.set("type", "Conversation");
    body.append("documentId", adasDocument);
    const request = new Request("http://localhost/workspace/create", { method: "POST", body, headers: { Cookie: eve.cookie } });
    const answer = (await createWorkspace({ request, params: {}, context: {} })) as { data?: { message?: string }; init?: { status?: number } | null; status?: number };
    expect(answer.init?.status ?? answer.status).toBe(404);
    expect(answer.data?.message).toBe("Document Not Found");
    expect(await env.runtime.container.get(WorkspaceQueries).count(eve.id)).toBe(0);
  });
});
