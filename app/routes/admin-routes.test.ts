import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { DevMailbox } from "#application/ports/mailer";
import { ImpersonationService } from "#application/administration/impersonation-service";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { getCookies } from "#app/utils/cookies.server";
import { impersonationCookieHeader } from "#app/utils/impersonation.server";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { settle } from "../../tests/support/library-fixtures";

/**
 * The admin routes' abuse cases (issue 15 'Bad input and abuse'), through the
 * route modules as the server calls them: a non-admin on every admin route,
 * an expired impersonation cookie replayed, a forged end of another admin's impersonation.
 */
const ctx = { requestId: "admin-routes", clientAddress: "127.0.0.1" };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
const users: Record<string, string> = {};
const sessions: Record<string, string> = {};

async function account(username: string) {
  const identity = env.runtime.container.get(IdentityService);
  const email = `${username}@example.com`;
  const { userId } = await identity.register({ username, email, password: "Secret12!" }, ctx);
  const mail = (await env.runtime.get<DevMailbox>(TOKENS.DevMailbox).list(50)).find((m) => m.to === email)!;
  await identity.confirmSignup({ username, code: /\d{6}/.exec(mail.text)![0] }, ctx);
  await env.runtime.container.get(ProfileService).completeOnboarding(userId, { firstName: username, lastName: "Tester", email, occupation: "Engineer", language: "English" }, { ...ctx, actorId: userId });
  users[username] = userId;
  sessions[username] = (await identity.startSession(userId, ctx)).token;
}

async function cookieFor(username: string, impersonationToken?: string) {
  const { session, csrf } = await getCookies();
  const parts = [await session.serialize(sessions[username]), await csrf.serialize("csrf-token")];
  if (impersonationToken) parts.push(await impersonationCookieHeader(impersonationToken, new Date(Date.now() + 7200_000).toISOString()));
  return parts.map((c) => c.split(";")[0]).join("; ");
}

async function call(fn: (args: never) => Promise<unknown>, request: Request): Promise<Response | unknown> {
  return fn({ request, params: {}, context: {} } as never).then(
    (value) => value,
    (thrown: unknown) => thrown,
  );
}

function post(url: string, cookie: string, fields: Record<string, string> = {}, json?: unknown) {
  if (json !== undefined) {
    return new Request(url, { method: "POST", body: JSON.stringify(json), headers: { Cookie: cookie, "Content-Type": "application/json", "X-CSRF-Token": "csrf-token", Origin: "http://localhost" } });
  }
  const body = new FormData();
  body.set("csrf", "csrf-token");
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return new Request(url, { method: "POST", body, headers: { Cookie: cookie, Origin: "http://localhost" } });
}

const head = () => env.runtime.get<EventStore>(TOKENS.EventStore).headPosition();

beforeAll(async () => {
  env = await createTestRuntime({ env: { ADMIN_USERNAMES: "rootadmin,otheradmin" } });
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  for (const name of ["rootadmin", "otheradmin", "adalove", "mallory"]) await account(name);
  await settle(env.runtime);
}, 60_000);
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("admin routes", () => {
  it("answer a non-admin 404 on every page and API, and append nothing", async () => {
    const cookie = await cookieFor("mallory");
    const before = await head();
    const dashboard = await import("./_app.adminDashboard");
    const workflows = await import("./_app.admin.workflows");
    const audit = await import("./_app.admin.audit.account");
    const exported = await import("./admin.audit.export");
    const impersonate = await import("./profiles.impersonate");
    const filter = await import("./profiles.filter");
    const get = (path: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
    const answers = [
      await call(dashboard.loader, get("/adminDashboard?q=ada")),
      await call(dashboard.action, post("http://localhost/adminDashboard", cookie, { intent: "grant", target: users.mallory })),
      await call(workflows.loader, get("/admin/workflows")),
      await call(workflows.action, post("http://localhost/admin/workflows", cookie, { workflowId: "x" })),
      await call(audit.loader, get(`/admin/audit/account?username=adalove`)),
      await call(exported.loader, get(`/admin/audit/export?username=adalove&format=json`)),
      await call(impersonate.action, post("http://localhost/profiles/impersonate", cookie, { user_id: users.adalove, reason: "Just looking around" })),
      await call(filter.action, post("http://localhost/profiles/filter", cookie, {}, { logic: "OR", filters: [{ field: "email", type: "contains", value: "example" }] })),
    ];
    expect(answers.map((a) => (a instanceof Response ? a.status : a))).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    expect(await head()).toBe(before);
  });

  it("an admin's filter answers the spec's shape", async () => {
    const filter = await import("./profiles.filter");
    const answer = (await call(filter.action, post("http://localhost/profiles/filter", await cookieFor("rootadmin"), {}, { logic: "OR", filters: [{ field: "auth_id", data_type: "string", type: "contains", value: "adalo" }] }))) as Response;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ users: [{ id: users.adalove, auth_id: "adalove", name: "adalove Tester", email_id: "adalove@example.com" }] });
  });

  it("an expired impersonation cookie replayed is the admin again, and changes nothing", async () => {
    const impersonations = env.runtime.container.get(ImpersonationService);
    const { impersonationId, token } = await impersonations.start(users.rootadmin, { userId: users.adalove, reason: "Replaying an old cookie" }, { ...ctx, actorId: users.rootadmin });
    const layout = await import("./_app");
    const cookie = await cookieFor("rootadmin", token);
    const asUser = (await call(layout.loader, new Request("http://localhost/", { headers: { Cookie: cookie } }))) as { user: { id: string; role: string } };
    expect(asUser.user).toMatchObject({ id: users.adalove, role: "impersonate" });

    env.clock.advance(3600_000);
    const after = (await call(layout.loader, new Request("http://localhost/", { headers: { Cookie: cookie } }))) as { user: { id: string; role: string; impersonation: unknown } };
    expect(after.user).toMatchObject({ id: users.rootadmin, role: "admin", impersonation: null });
    await settle(env.runtime);
    const before = await head();
    // Exit with the dead cookie: nothing to end.
    const exit = await import("./admin.exit");
    const answer = (await call(exit.action, post("http://localhost/admin/exit", cookie))) as Response;
    expect(answer.status).toBe(302);
    expect(await head()).toBe(before);
    const ended = (await env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`impersonation-${impersonationId}`)).filter((e) => e.type === "ImpersonationEnded");
    expect(ended.map((e) => e.data.cause)).toEqual(["expiry"]);
  });

  it("a forged request to end another admin's impersonation ends nothing", async () => {
    const impersonations = env.runtime.container.get(ImpersonationService);
    const { impersonationId, token } = await impersonations.start(users.otheradmin, { userId: users.mallory, reason: "Checking a report" }, { ...ctx, actorId: users.otheradmin });
    const before = await head();
    const exit = await import("./admin.exit");
    // rootadmin's own session with otheradmin's impersonation cookie: it is not theirs, so nothing resolves and nothing ends.
    await call(exit.action, post("http://localhost/admin/exit", await cookieFor("rootadmin", token)));
    // A member posting the same.
    await call(exit.action, post("http://localhost/admin/exit", await cookieFor("mallory", token)));
    expect(await head()).toBe(before);
    expect(await impersonations.resolve(token, users.otheradmin)).toMatchObject({ state: "active", session: { impersonationId } });
  });

  it("an impersonation left open shows on the dashboard with End, and Impersonate offers to end it first", async () => {
    const impersonations = env.runtime.container.get(ImpersonationService);
    const dashboard = await import("./_app.adminDashboard");
    const impersonate = await import("./profiles.impersonate");
    const cookie = await cookieFor("rootadmin");
    // Started, then the browser closed: no cookie, no Exit Admin Mode.
    const { impersonationId: leftOpen } = await impersonations.start(users.rootadmin, { userId: users.adalove, reason: "Left open by a closed tab" }, { ...ctx, actorId: users.rootadmin });
    const shown = (await call(dashboard.loader, new Request("http://localhost/adminDashboard", { headers: { Cookie: cookie } }))) as { running: { id: string; userName: string } | null };
    expect(shown.running).toMatchObject({ id: leftOpen, userName: "adalove Tester" });

    const started = (await call(impersonate.action, post("http://localhost/profiles/impersonate", cookie, { user_id: users.mallory, reason: "Next support ticket", end_running: leftOpen }))) as Response;
    expect(started.status).toBe(302);
    expect(started.headers.get("Location")).toBe("/");
    const [now] = await impersonations.runningOf(users.rootadmin);
    expect(now).toMatchObject({ userId: users.mallory });

    // Another admin cannot end it as their own; its admin can, from the dashboard.
    await call(dashboard.action, post("http://localhost/adminDashboard", await cookieFor("otheradmin"), { intent: "end-own", target: now!.id }));
    expect((await impersonations.runningOf(users.rootadmin)).map((r) => r.id)).toEqual([now!.id]);
    await call(dashboard.action, post("http://localhost/adminDashboard", cookie, { intent: "end-own", target: now!.id }));
    expect(await impersonations.runningOf(users.rootadmin)).toEqual([]);
  });
});
