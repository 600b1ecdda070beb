import "reflect-metadata";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { DevMailbox } from "#application/ports/mailer";
import { ImpersonationService } from "#application/administration/impersonation-service";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { getCookies } from "#app/utils/cookies.server";
import { impersonationCookieHeader } from "#app/utils/impersonation.server";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { settle, uploadTextDocument } from "../../tests/support/library-fixtures";

/**
 * Impersonation is read-only on the server (ARCHITECTURE §8, issue 15): every
 * route module that has an action is called, with every method, as an admin
 * impersonating a user who owns a document, a workspace, a conversation; each
 * answer is a refusal and the event log does not grow.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * Non-GET requests an impersonating admin may make: ending the impersonation, the zip download (a read sent as a form),
 * and a LaTeX compile (it keeps nothing: the chat's LaTeX answers show to the admin as to the user, issue 44 item 10).
 */
const ALLOWED = new Set(["admin.exit.tsx", "documents.download-zip.tsx", "api.convert.tsx"]);

const ctx = { requestId: "read-only-walk", clientAddress: "127.0.0.1" };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
let cookie = "";
const ids: Record<string, string> = {};

async function account(username: string) {
  const identity = env.runtime.container.get(IdentityService);
  const email = `${username}@example.com`;
  const { userId } = await identity.register({ username, email, password: "Secret12!" }, ctx);
  const mail = (await env.runtime.get<DevMailbox>(TOKENS.DevMailbox).list(50)).find((m) => m.to === email)!;
  await identity.confirmSignup({ username, code: /\d{6}/.exec(mail.text)![0] }, ctx);
  await env.runtime.container.get(ProfileService).completeOnboarding(userId, { firstName: username, lastName: "Tester", email, occupation: "Engineer", language: "English" }, { ...ctx, actorId: userId });
  return userId;
}

beforeAll(async () => {
  env = await createTestRuntime({ env: { ADMIN_USERNAMES: "rootadmin" } });
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  const root = await account("rootadmin");
  const ada = await account("adalove");
  const { token: adminToken } = await env.runtime.container.get(IdentityService).startSession(root, ctx);
  ids.document = await uploadTextDocument(env.runtime, ada, "notes.txt", "The analytical engine weaves algebraic patterns.");
  const { workspaceId } = await env.runtime.container.get(WorkspaceService).create(ada, { name: "Engines", type: "Conversation", documentIds: [ids.document] }, { ...ctx, actorId: ada });
  ids.workspace = workspaceId;
  await settle(env.runtime);
  for (let i = 0; i < 50 && !ids.conversation; i++) {
    const ws = await env.runtime.container.get(WorkspaceQueries).get(ada, workspaceId);
    ids.conversation = ws.conversations[0]?.id ?? "";
    if (!ids.conversation) await new Promise((r) => setTimeout(r, 100));
  }
  const { token, impersonationId } = await env.runtime.container.get(ImpersonationService).start(root, { userId: ada, reason: "Checking the read-only walk" }, { ...ctx, actorId: root });
  const { session, csrf } = await getCookies();
  cookie = [await session.serialize(adminToken), await csrf.serialize("csrf-token"), await impersonationCookieHeader(token, new Date(Date.now() + 3600_000).toISOString())]
    .map((c) => c.split(";")[0])
    .join("; ");
  ids.impersonation = impersonationId;
  await settle(env.runtime);
}, 120_000);
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

const mutatingRoutes = readdirSync(here).filter((file) => /\.tsx?$/.test(file) && !file.includes(".test.") && !ALLOWED.has(file));

/** The URL a route file answers, with the user's real ids in its params. */
function urlOf(file: string): { url: string; params: Record<string, string> } {
  const segments = file.replace(/\.tsx?$/, "").split(".").filter((s) => !s.startsWith("_") && s !== "_index");
  const params: Record<string, string> = {};
  const resolved = segments.map((segment) => {
    if (!segment.startsWith("$")) return segment;
    const name = segment.slice(1);
    const value = name === "id" ? (file.includes("document") ? ids.document : file.includes("conversation") ? ids.conversation : file.includes("workspace") ? ids.workspace : "x") : name === "page" ? "1" : "x";
    params[name] = value;
    return value;
  });
  return { url: `http://localhost/${resolved.join("/")}`, params };
}

async function outcome(response: unknown): Promise<{ status: number; text: string }> {
  if (response instanceof Response) return { status: response.status, text: `${response.headers.get("Location") ?? ""} ${await response.clone().text()}` };
  const init = (response as { init?: { status?: number } } | null)?.init;
  return { status: init?.status ?? 200, text: JSON.stringify(response) };
}

describe("while an admin impersonates a user", () => {
  it("finds the routes to walk", () => {
    expect(mutatingRoutes.length).toBeGreaterThan(30);
  });

  for (const file of mutatingRoutes) {
    it(`${file}: every method is refused and nothing is appended`, async () => {
      const mod = (await import(`./${file.replace(/\.tsx?$/, "")}`)) as { action?: (args: unknown) => Promise<unknown> };
      if (!mod.action) return;
      const { url, params } = urlOf(file);
      const events = env.runtime.get<EventStore>(TOKENS.EventStore);
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const before = await events.headPosition();
        const body = new FormData();
        body.set("csrf", "csrf-token");
        for (const [name, value] of Object.entries({ intent: "delete", ids: ids.document, documentIds: ids.document, name: "Renamed", text: "hi", workspace_id: ids.workspace, reason: "Lack of Use", confirmation: "Delete My Account", rating: "1", username: "adalove" })) body.set(name, value);
        const request = new Request(url, { method, body, headers: { Cookie: cookie, "x-csrf-token": "csrf-token", Origin: "http://localhost" } });
        let result: { status: number; text: string };
        try {
          result = await outcome(await mod.action({ request, params, context: {} }));
        } catch (thrown) {
          result = await outcome(thrown);
        }
        await settle(env.runtime);
        expect(await events.headPosition(), `${method} ${file} appended events`).toBe(before);
        // A clear refusal: 403 with the code (APIs), or back with the message (pages), or the 405/404 of a route without that method.
        const refused =
          (result.status === 403 && result.text.includes("IMPERSONATION_READ_ONLY")) ||
          (result.status >= 300 && result.status < 400) ||
          result.status === 405 ||
          result.status === 404 ||
          // The public API and /mcp read bearer tokens only: the impersonation's cookies open nothing there (decision 220).
          (result.status === 401 && result.text.includes("TOKEN_MISSING"));
        expect(refused, `${method} ${file} answered ${result.status}: ${result.text.slice(0, 200)}`).toBe(true);
      }
    });
  }

  it("profile routes and the delete-account page redirect to / (spec 001 §2)", async () => {
    for (const [file, path] of [["./_app.profile", "/profile/my-account"], ["./_app.delete-account", "/delete-account"]]) {
      const route = (await import(/* @vite-ignore */ file)) as { loader: (args: unknown) => Promise<unknown> };
      const answer = await route.loader({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params: {}, context: {} }).then(
        (value) => value,
        (thrown: unknown) => thrown,
      );
      expect(answer, path).toBeInstanceOf(Response);
      expect((answer as Response).headers.get("Location"), path).toBe("/");
    }
  });

  it("records every read through the API as viewed, as the pages' loaders do (decision 103)", async () => {
    const reads: [string, string, Record<string, string>, string, string][] = [
      ["./api.documents.$id", `/api/documents/${ids.document}`, { id: ids.document }, "document", ids.document],
      ["./api.workspaces.$id", `/api/workspaces/${ids.workspace}`, { id: ids.workspace }, "workspace", ids.workspace],
      ["./api.conversations.$id.export", `/api/conversations/${ids.conversation}/export`, { id: ids.conversation }, "conversation", ids.conversation],
      ["./documents.download.$id", `/documents/download/${ids.document}`, { id: ids.document }, "document", ids.document],
      ["./api.documents.$id.pages.$page", `/api/documents/${ids.document}/pages/1`, { id: ids.document, page: "1" }, "document", ids.document],
      ["./api.documents.$id.layout.$page", `/api/documents/${ids.document}/layout/1`, { id: ids.document, page: "1" }, "document", ids.document],
    ];
    const events = env.runtime.get<EventStore>(TOKENS.EventStore);
    const views = async () => (await events.readStream(`impersonation-${ids.impersonation}`)).filter((e) => e.type === "ImpersonationViewed");
    for (const [module, path, params, kind, resourceId] of reads) {
      // A minute apart: the same resource read again within one is the same view.
      env.clock.advance(61_000);
      const before = (await views()).length;
      const route = (await import(/* @vite-ignore */ module)) as { loader: (args: unknown) => Promise<unknown> };
      const answer = await route.loader({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params, context: {} });
      expect((answer as Response).status, path).toBeLessThan(300);
      const recorded = (await views()).slice(before);
      expect(recorded.map((e) => e.data), path).toEqual([expect.objectContaining({ kind, resourceId })]);
    }
    // Read again at once, range by range or page by page: still one view.
    const before = (await views()).length;
    const download = (await import("./documents.download.$id")) as { loader: (args: unknown) => Promise<unknown> };
    await download.loader({ request: new Request(`http://localhost/documents/download/${ids.document}`, { headers: { Cookie: cookie, Range: "bytes=5-9" } }), params: { id: ids.document }, context: {} });
    expect((await views()).length).toBe(before);
  });
});
