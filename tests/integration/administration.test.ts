import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { DevMailbox } from "#application/ports/mailer";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { AccountAudit } from "#application/administration/account-audit";
import { AdminRoles } from "#application/administration/admin-roles";
import { AdministrationQueries } from "#application/administration/administration-queries";
import { ImpersonationAudit } from "#application/administration/impersonation-audit";
import { ImpersonationService } from "#application/administration/impersonation-service";
import { AccountDeletionService } from "#application/identity/account-deletion";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { DomainError } from "#domain/shared/domain-error";
import { accountDeletionWorkflowId } from "#workflows/account-deletion";
import { impersonationExpiryWorkflowId } from "#workflows/impersonation-expiry";
import { createTestRuntime } from "../support/test-runtime";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
let identity: IdentityService;
let impersonations: ImpersonationService;
let queries: AdministrationQueries;
let n = 0;
const ctx = (actorId?: string, extra: Partial<RequestContext> = {}): RequestContext => ({ requestId: `req-${++n}`, clientAddress: "10.0.0.1", actorId, ...extra });
const REASON = "Support ticket 42: workspace does not load";

beforeEach(async () => {
  env = await createTestRuntime({ env: { ADMIN_USERNAMES: "rootadmin,secondadmin", ACCOUNT_DELETION_GRACE_MS: "600000" } });
  identity = env.runtime.container.get(IdentityService);
  impersonations = env.runtime.container.get(ImpersonationService);
  queries = env.runtime.container.get(AdministrationQueries);
});
afterEach(async () => env.cleanup());

const engine = () => env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
const events = () => env.runtime.get<EventStore>(TOKENS.EventStore);

/** A confirmed, onboarded, signed-in account (the sign-in is what bootstraps a configured admin). */
async function account(username: string, firstName: string) {
  const email = `${username}@example.com`;
  const { userId } = await identity.register({ username, email, password: "Secret12!" }, ctx());
  const mail = (await env.runtime.get<DevMailbox>(TOKENS.DevMailbox).list(50)).find((m) => m.to === email)!;
  await identity.confirmSignup({ username, code: /\d{6}/.exec(mail.text)![0] }, ctx());
  await env.runtime.container.get(ProfileService).completeOnboarding(userId, { firstName, lastName: "Tester", email, occupation: "Engineer", language: "English" }, ctx(userId));
  await identity.startSession(userId, ctx(userId));
  return userId;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return (error as DomainError).code;
}

describe("admins as events", () => {
  it("the configuration bootstraps its admins at their first sign-in, and an admin makes another", async () => {
    const root = await account("rootadmin", "Root");
    const ada = await account("adalove", "Ada");
    expect(await queries.isAdmin(root)).toBe(true);
    expect(await queries.isAdmin(ada)).toBe(false);
    await env.runtime.container.get(AdminRoles).grant(root, ada, ctx(root));
    expect(await queries.isAdmin(ada)).toBe(true);
    const bob = await account("bobby", "Bob");
    expect(await refusal(env.runtime.container.get(AdminRoles).grant(bob, bob, ctx(bob)))).toBe("NOT_ADMIN");
    const adaAudit = await env.runtime.container.get(AccountAudit).history(ada);
    expect(adaAudit.rows.find((row) => row.type === "administrator: AdminRoleGranted")?.details).toBe(`admin role of ${ada} granted by ${root}`);
    const rootAudit = await env.runtime.container.get(AccountAudit).history(root);
    expect(rootAudit.rows.find((row) => row.type === "administrator: AdminRoleGranted")?.details).toContain("granted by configuration");
  });
});

describe("impersonation", () => {
  it("searches users from 3 characters, by username, email or name", async () => {
    const root = await account("rootadmin", "Root");
    await account("adalove", "Augusta");
    const filter = (value: string) => ({ logic: "OR", filters: ["email", "auth_id", "name"].map((field) => ({ field, data_type: "string", type: "contains", value })) });
    expect((await queries.searchUsers(filter("ad"))).length).toBe(0);
    expect((await queries.searchUsers(filter("ADAL"))).map((u) => u.auth_id)).toEqual(["adalove"]);
    expect((await queries.searchUsers(filter("augu"))).map((u) => u.auth_id)).toEqual(["adalove"]);
    expect((await queries.searchUsers(filter("@example"))).map((u) => u.auth_id).sort()).toEqual(["adalove", "rootadmin"]);
    expect((await queries.searchUsers(filter("rootadmin")))[0]).toMatchObject({ id: root, isAdmin: true });
  });

  it("runs under a session naming both people, ends by expiry after 3600 s exactly once, and the timer is a workflow", async () => {
    const root = await account("rootadmin", "Root");
    const ada = await account("adalove", "Ada");
    const { impersonationId, token, deadline } = await impersonations.start(root, { userId: ada, reason: REASON }, ctx(root));
    expect(Date.parse(deadline) - env.clock.now().getTime()).toBe(3600_000);
    const resolved = await impersonations.resolve(token, root);
    expect(resolved).toMatchObject({ state: "active", session: { impersonationId, adminId: root, userId: ada } });
    // The cookie alone, with another admin's own session, is nothing.
    expect(await impersonations.resolve(token, ada)).toEqual({ state: "none" });
    expect((await engine().describe(impersonationExpiryWorkflowId(impersonationId)))?.status).toBe("running");

    // A view while it runs is recorded with both people and the impersonation in the metadata.
    const under = ctx(ada, { impersonatorId: root, impersonationId });
    await impersonations.recordView(under, "workspace", "w-1", "Thesis notes");
    const viewed = (await events().readStream(`impersonation-${impersonationId}`)).find((e) => e.type === "ImpersonationViewed")!;
    expect(viewed.metadata).toMatchObject({ actorId: ada, impersonatorId: root, impersonationId });

    env.clock.advance(3600_000);
    const run = await engine().waitForCompletion(impersonationExpiryWorkflowId(impersonationId), 10_000);
    expect(run).toMatchObject({ status: "completed", result: { expired: true } });
    // The server's own check afterwards finds it ended (once; the cookie's session is then revoked) and records nothing more.
    expect(await impersonations.resolve(token, root)).toEqual({ state: "ended", cause: "expiry" });
    expect(await impersonations.resolve(token, root)).toEqual({ state: "none" });
    const ended = (await events().readStream(`impersonation-${impersonationId}`)).filter((e) => e.type === "ImpersonationEnded");
    expect(ended.map((e) => e.data.cause)).toEqual(["expiry"]);
    const [row] = await queries.history();
    expect(row).toMatchObject({ status: "ENDED", endedBy: "expiry", userName: "Ada Tester", adminName: "rootadmin", reason: REASON, views: [{ kind: "workspace", title: "Thesis notes" }] });
    expect((await queries.impersonationsOf(ada)).map((r) => r.id)).toEqual([impersonationId]);
  });

  it("the server's check on a request past the deadline ends it, and the timer then records nothing", async () => {
    const root = await account("rootadmin", "Root");
    const ada = await account("adalove", "Ada");
    const { impersonationId, token } = await impersonations.start(root, { userId: ada, reason: REASON }, ctx(root));
    await engine().describe(impersonationExpiryWorkflowId(impersonationId));
    env.clock.advance(3600_000);
    expect(await impersonations.resolve(token, root)).toEqual({ state: "ended", cause: "expiry" });
    const run = await engine().waitForCompletion(impersonationExpiryWorkflowId(impersonationId), 10_000);
    expect(run?.result).toEqual({ expired: false });
    expect((await events().readStream(`impersonation-${impersonationId}`)).filter((e) => e.type === "ImpersonationEnded")).toHaveLength(1);
  });

  it("ending early restores the admin, signals the timer, and a replayed cookie is nothing", async () => {
    const root = await account("rootadmin", "Root");
    const ada = await account("adalove", "Ada");
    const { impersonationId, token } = await impersonations.start(root, { userId: ada, reason: REASON }, ctx(root));
    await impersonations.end(token, root, ctx(ada, { impersonatorId: root, impersonationId }));
    const run = await engine().waitForCompletion(impersonationExpiryWorkflowId(impersonationId), 10_000);
    expect(run).toMatchObject({ status: "completed", result: { expired: false } });
    expect(await impersonations.resolve(token, root)).toEqual({ state: "none" });
    expect(await refusal(impersonations.end(token, root, ctx(root)))).toBe("IMPERSONATION_NOT_FOUND");
    const ended = (await events().readStream(`impersonation-${impersonationId}`)).filter((e) => e.type === "ImpersonationEnded");
    expect(ended).toHaveLength(1);
    expect(ended[0].metadata).toMatchObject({ actorId: ada, impersonatorId: root, impersonationId });
  });

  it("an impersonation left open is shown to its admin, who ends it without its cookie and starts another", async () => {
    const root = await account("rootadmin", "Root");
    const ada = await account("adalove", "Ada");
    const bob = await account("bobbuilder", "Bob");
    // The browser closed without Exit Admin Mode: the cookie (and its token) is gone.
    const { impersonationId } = await impersonations.start(root, { userId: ada, reason: REASON }, ctx(root));
    expect(await refusal(impersonations.start(root, { userId: bob, reason: REASON }, ctx(root)))).toBe("IMPERSONATION_RUNNING");
    expect((await impersonations.runningOf(root)).map((r) => ({ id: r.id, userId: r.userId }))).toEqual([{ id: impersonationId, userId: ada }]);
    expect(await refusal(impersonations.endOwn("secondadmin", impersonationId, ctx("secondadmin")))).toBe("IMPERSONATION_NOT_FOUND");
    await impersonations.endOwn(root, impersonationId, ctx(root));
    expect(await impersonations.runningOf(root)).toEqual([]);
    expect((await queries.history()).find((row) => row.id === impersonationId)).toMatchObject({ status: "ENDED", endedBy: "admin" });
    await impersonations.start(root, { userId: bob, reason: REASON }, ctx(root));
  });

  it("refuses the abuse cases with nothing appended", async () => {
    const root = await account("rootadmin", "Root");
    const second = await account("secondadmin", "Sec");
    const ada = await account("adalove", "Ada");
    const bob = await account("bobby", "Bob");
    const head = () => events().headPosition();
    const before = await head();
    const start = (admin: string, userId: string, reason = REASON, extra: Partial<RequestContext> = {}) => impersonations.start(admin, { userId, reason }, ctx(admin, extra));
    expect(await refusal(start(bob, ada))).toBe("NOT_ADMIN");
    expect(await refusal(start(root, "0190aaaa-0000-7000-8000-000000000000"))).toBe("USER_NOT_FOUND");
    expect(await refusal(start(root, root))).toBe("CANNOT_IMPERSONATE_SELF");
    expect(await refusal(start(root, second))).toBe("CANNOT_IMPERSONATE_ADMIN");
    expect(await refusal(start(root, ada, ""))).toBe("REASON_REQUIRED");
    expect(await head()).toBe(before);

    const first = await start(root, ada);
    const afterFirst = await head();
    expect(await refusal(start(root, bob))).toBe("IMPERSONATION_RUNNING");
    // Nesting: a start from inside an impersonation is refused by the guard.
    expect(await refusal(start(root, bob, REASON, { impersonatorId: root, impersonationId: first.impersonationId }))).toBe("IMPERSONATION_READ_ONLY");
    // A forged end of someone else's impersonation: the other admin's cookie-less attempt and a non-admin's force.
    expect(await refusal(impersonations.end(first.token, second, ctx(second)))).toBe("IMPERSONATION_NOT_FOUND");
    expect(await refusal(impersonations.forceEnd(bob, first.impersonationId, ctx(bob)))).toBe("NOT_ADMIN");
    expect(await head()).toBe(afterFirst);

    // Pending deletion.
    await env.runtime.container.get(AccountDeletionService).schedule(bob, { reason: "Lack of Use", confirmation: "Delete My Account" }, ctx(bob));
    const beforePending = await head();
    expect(await refusal(start(second, bob))).toBe("USER_PENDING_DELETION");
    expect(await head()).toBe(beforePending);

    // Another admin may force it to end.
    await impersonations.forceEnd(second, first.impersonationId, ctx(second));
    expect(await impersonations.resolve(first.token, root)).toEqual({ state: "ended", cause: "forced" });
  });

  it("the audit replays an impersonation from the event store, and after the user's purge no longer shows whom", async () => {
    const root = await account("rootadmin", "Root");
    const ada = await account("adalove", "Augusta");
    const { impersonationId, token } = await impersonations.start(root, { userId: ada, reason: REASON }, ctx(root));
    await impersonations.recordView(ctx(ada, { impersonatorId: root, impersonationId }), "document", "d-1", "Augusta's diary.pdf");
    await impersonations.end(token, root, ctx(ada, { impersonatorId: root, impersonationId }));
    const audit = env.runtime.container.get(ImpersonationAudit);
    const before = (await audit.history(impersonationId))!;
    expect(before.rows.map((r) => r.type)).toEqual(["impersonation: ImpersonationStarted", "impersonation: ImpersonationViewed", "impersonation: ImpersonationEnded"]);
    expect(before.rows[0].details).toContain("Augusta Tester");
    expect(before.rows[0].details).toContain(REASON);
    expect(before.rows[1].details).toContain("Augusta's diary.pdf");
    expect(await audit.history("not-an-id")).toBeNull();

    await env.runtime.container.get(AccountDeletionService).schedule(ada, { reason: "Lack of Use", confirmation: "Delete My Account" }, ctx(ada));
    env.clock.advance(600_000);
    expect((await engine().waitForCompletion(accountDeletionWorkflowId(ada), 20_000))?.status).toBe("completed");

    const after = (await audit.history(impersonationId))!;
    expect(after.rows.map((r) => r.type)).toEqual(before.rows.map((r) => r.type));
    const text = JSON.stringify(after);
    for (const secret of ["Augusta", REASON, "diary"]) expect(text).not.toContain(secret);
    expect(after.rows[0].details).toContain(ada);
    expect(after.rows[0].details).toContain("(personal data erased)");
    // The account audit still shows the account existed, was impersonated, and was deleted.
    const accountHistory = await env.runtime.container.get(AccountAudit).history(ada, "adalove");
    expect(accountHistory.rows.map((r) => r.type)).toEqual(expect.arrayContaining(["UserRegistered", "impersonation: ImpersonationStarted", "AccountPurged"]));
    const [row] = await queries.history();
    expect(row).toMatchObject({ userName: "(erased)", reason: "(erased)", views: [{ title: "(erased)" }] });
    // A deleted (purged) account cannot be impersonated.
    expect(await refusal(impersonations.start(root, { userId: ada, reason: REASON }, ctx(root)))).toBe("USER_NOT_FOUND");
  });
});
