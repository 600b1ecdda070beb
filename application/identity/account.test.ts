import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { DevMailbox } from "#application/ports/mailer";
import type { EventStore } from "#application/ports/event-store";
import type { SearchIndex } from "#application/ports/search-index";
import type { SessionStore } from "#application/ports/sessions";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { DomainError } from "#domain/shared/domain-error";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { allProjectors } from "#projections/index";
import { accountDeletionWorkflowId } from "#workflows/account-deletion";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { AccountAudit } from "#application/administration/account-audit";
import { AccountDeletionService } from "./account-deletion";
import { IdentityQueries } from "./identity-queries";
import { IdentityService } from "./identity-service";
import { ProfileService } from "./profile-service";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
let identity: IdentityService;
let profiles: ProfileService;
let deletion: AccountDeletionService;
let queries: IdentityQueries;
let n = 0;
const ctx = (actorId?: string): RequestContext => ({ requestId: `req-${++n}`, clientAddress: "10.0.0.1", actorId });
const GRACE = 10 * 60_000;

beforeEach(async () => {
  env = await createTestRuntime();
  identity = env.runtime.container.get(IdentityService);
  profiles = env.runtime.container.get(ProfileService);
  deletion = env.runtime.container.get(AccountDeletionService);
  queries = env.runtime.container.get(IdentityQueries);
});
afterEach(async () => env.cleanup());

const ada = { username: "adalove", email: "ada.lovelace@example.com", password: "Secret12!" };
const onboarding = { firstName: "Augusta", lastName: "Byronova", email: ada.email, occupation: "Engineer", language: "English" };

async function signUp(account = ada) {
  const { userId } = await identity.register(account, ctx());
  const mail = (await env.runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1))[0];
  await identity.confirmSignup({ username: account.username, code: /\d{6}/.exec(mail.text)![0] }, ctx());
  return userId;
}

async function onboarded() {
  const userId = await signUp();
  await profiles.completeOnboarding(userId, onboarding, ctx(userId));
  return userId;
}

async function errorOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** A real PNG header of the given size followed by junk: what the server checks. */
function png(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(64);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

describe("onboarding", () => {
  it("is required until completed, then the profile shows in the current user", async () => {
    const userId = await signUp();
    expect(await queries.currentUser(userId, null)).toMatchObject({ isOnboarded: false, displayName: null });
    const invalid = await errorOf(profiles.completeOnboarding(userId, { ...onboarding, occupation: "" }, ctx(userId)));
    expect(invalid).toMatchObject({ field: "occupation", message: "Occupation type is required" });
    await profiles.completeOnboarding(userId, onboarding, ctx(userId));
    expect(await queries.currentUser(userId, null)).toMatchObject({
      isOnboarded: true,
      displayName: "Augusta Byronova",
      occupation: "Engineer",
      language: "English",
      email: ada.email,
    });
    expect((await errorOf(profiles.completeOnboarding(userId, onboarding, ctx(userId)))).code).toBe("ALREADY_ONBOARDED");
  });

  it("keeps names under data.personal, sealed in the log", async () => {
    const userId = await onboarded();
    const events = await env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`user-${userId}`);
    const completed = events.find((e) => e.type === "ProfileCompleted")!;
    expect(completed.metadata).toMatchObject({ subjectId: userId, actorId: userId });
    expect(completed.data.personal).toMatchObject({ firstName: "Augusta" });
  });
});

describe("profile", () => {
  it("updates details with the profile's rules", async () => {
    const userId = await onboarded();
    await profiles.updateProfile(userId, { firstName: "Ada", lastName: "King", occupation: "Lawyer", language: "French" }, ctx(userId));
    expect(await queries.currentUser(userId, null)).toMatchObject({ firstName: "Ada", lastName: "King", occupation: "Lawyer", language: "French" });
    const noLanguage = await errorOf(profiles.updateProfile(userId, { firstName: "A", lastName: "B", occupation: "Doctor", language: "" }, ctx(userId)));
    expect(noLanguage).toMatchObject({ field: "language", message: "Please select a language" });
  });

  it("stores a 250×250 PNG under a generated key, replaces the old one, and refuses anything else", async () => {
    const userId = await onboarded();
    const blobs = env.runtime.get<BlobStore>(TOKENS.BlobStore);
    const first = await profiles.changePicture(userId, png(250, 250), ctx(userId));
    expect(first.pictureKey).toMatch(new RegExp(`^avatars/${userId}/[0-9a-f-]{36}\\.png$`));
    expect(await blobs.head(first.pictureKey)).toMatchObject({ contentType: "image/png" });
    const second = await profiles.changePicture(userId, png(250, 250), ctx(userId));
    expect(await blobs.head(first.pictureKey)).toBeNull();
    expect((await queries.currentUser(userId, null))?.pictureUrl).toContain(`/avatars/${userId}?v=`);
    expect(await queries.pictureKey(userId)).toBe(second.pictureKey);

    expect((await errorOf(profiles.changePicture(userId, png(300, 250), ctx(userId)))).code).toBe("INVALID_PICTURE");
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array(60).fill(0)]);
    expect((await errorOf(profiles.changePicture(userId, jpeg, ctx(userId)))).message).toBe("The profile picture must be a PNG image.");
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(png(250, 250));
    expect((await errorOf(profiles.changePicture(userId, huge, ctx(userId)))).message).toBe("Image file size exceeds 5MB limit.");
    expect((await blobs.list(`avatars/${userId}/`)).length).toBe(1);
  });
});

describe("account deletion", () => {
  const schedule = (userId: string) => deletion.schedule(userId, { reason: "Lack of Use", confirmation: "Delete My Account" }, ctx(userId));
  const engine = () => env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);

  it("needs the exact confirmation text and a reason", async () => {
    const userId = await onboarded();
    const wrong = await errorOf(deletion.schedule(userId, { reason: "Lack of Use", confirmation: "delete my account" }, ctx(userId)));
    expect(wrong.code).toBe("VALIDATION");
    expect((await errorOf(deletion.schedule(userId, { reason: "", confirmation: "Delete My Account" }, ctx(userId)))).code).toBe("VALIDATION");
  });

  it("marks the account PENDING_DELETE, refuses changes, and retrieval makes it ACTIVE again", async () => {
    const userId = await onboarded();
    const { purgeAt } = await schedule(userId);
    expect(Date.parse(purgeAt) - env.clock.now().getTime()).toBe(GRACE);
    expect(await queries.currentUser(userId, null)).toMatchObject({ status: "PENDING_DELETE", deleteScheduled: purgeAt });
    const refused = await errorOf(profiles.updateProfile(userId, { ...onboarding, firstName: "X" }, ctx(userId)));
    expect(refused).toMatchObject({ code: "ACCOUNT_PENDING_DELETE", message: "Your account is scheduled for deletion. Retrieve it to make changes." });
    expect((await errorOf(profiles.changePicture(userId, png(250, 250), ctx(userId)))).code).toBe("ACCOUNT_PENDING_DELETE");
    expect(await env.runtime.get<BlobStore>(TOKENS.BlobStore).list(`avatars/${userId}/`)).toEqual([]);

    await deletion.retrieve(userId, ctx(userId));
    expect(await queries.currentUser(userId, null)).toMatchObject({ status: "ACTIVE", deleteScheduled: null });
    // The workflow saw the signal and no purge happens, even long after the purge time.
    env.clock.advance(GRACE * 3);
    await new Promise((r) => setTimeout(r, 600));
    expect(await queries.currentUser(userId, null)).toMatchObject({ status: "ACTIVE" });
    expect((await engine().describe(accountDeletionWorkflowId(userId)))?.status).toBe("running");
    expect((await identity.login(ada, ctx())).userId).toBe(userId);

    // Scheduling again wakes the same run, which purges after the new grace period.
    await schedule(userId);
    env.clock.advance(GRACE);
    const info = await engine().waitForCompletion(accountDeletionWorkflowId(userId), 10_000);
    expect(info).toMatchObject({ status: "completed", result: { purged: true } });
  });

  it("purges after the grace period: sessions, key, blobs, search, read models, reservations; login refused; a rebuild shows nobody", async () => {
    const userId = await onboarded();
    await profiles.changePicture(userId, png(250, 250), ctx(userId));
    const blobs = env.runtime.get<BlobStore>(TOKENS.BlobStore);
    await blobs.put(`documents/${userId}/doc1/source`, Buffer.from("Augusta's notes"), { contentType: "text/plain" });
    const search = env.runtime.get<SearchIndex>(TOKENS.SearchIndex);
    await search.upsert([{ chunkId: "doc1:0", documentId: "doc1", ownerId: userId, pageNumber: 1, ordinal: 0, text: "analytical engine notes", blockIds: [] }]);
    const { token } = await identity.startSession(userId, ctx(userId));

    await schedule(userId);
    env.clock.advance(GRACE - 1000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await queries.currentUser(userId, null)).not.toBeNull(); // not yet

    env.clock.advance(1000);
    const info = await engine().waitForCompletion(accountDeletionWorkflowId(userId), 10_000);
    expect(info).toMatchObject({ status: "completed", result: { purged: true } });

    const events = env.runtime.get<EventStore>(TOKENS.EventStore);
    await env.runtime.get<{ waitForPosition(p: number): Promise<boolean> }>(TOKENS.ProjectionWaiter).waitForPosition(await events.headPosition());
    expect(await identity.resolveSession(token)).toBeNull();
    expect(await env.runtime.get<SessionStore>(TOKENS.SessionStore).revokeAllForUser(userId)).toEqual([]);
    expect(await blobs.list(`avatars/${userId}/`)).toEqual([]);
    expect(await blobs.list(`documents/${userId}/`)).toEqual([]);
    expect(await search.searchText("analytical", { documentIds: ["doc1"] }, 5)).toEqual([]);
    expect(await queries.currentUser(userId, null)).toBeNull();
    expect((await errorOf(identity.login(ada, ctx()))).code).toBe("INVALID_CREDENTIALS");

    const stream = await events.readStream(`user-${userId}`);
    expect(stream.map((e) => e.type).slice(-3)).toEqual(["AccountDeletionScheduled", "AccountPurgeStarted", "AccountPurged"]);
    expect(stream.at(-1)?.metadata.actorId).toBe("system");
    const everything = JSON.stringify(await events.readAll(0, 10_000));
    for (const secret of ["adalove", ada.email, "Augusta", "Byronova"]) expect(everything).not.toContain(secret);

    const fresh = new SqliteReadModelStore(new Database(":memory:"));
    await rebuildProjections(events, fresh, allProjectors);
    let dump = "";
    for (const name of await fresh.listCollections()) dump += JSON.stringify(await fresh.collection(name).find({}));
    for (const secret of ["adalove", "ada.lovelace", "Augusta", "Byronova"]) expect(dump).not.toContain(secret);
    expect(dump).not.toContain(userId);

    // The name is free again (decision 021).
    expect(await identity.isUsernameAvailable("adalove", ctx())).toBe(true);
    const again = await signUp();
    expect(again).not.toBe(userId);
  });

  it("the audit replays the account's history in log order with actors and no secrets", async () => {
    const userId = await onboarded();
    await identity.startSession(userId, ctx(userId));
    await schedule(userId);
    env.clock.advance(GRACE);
    await engine().waitForCompletion(accountDeletionWorkflowId(userId), 10_000);

    const audit = env.runtime.container.get(AccountAudit);
    expect(await audit.findAccount("ADALOVE")).toBe(userId);
    expect(await audit.findAccount(userId)).toBe(userId);
    expect(await audit.findAccount("nobody")).toBeNull();
    const history = await audit.history(userId, "adalove");
    const types = history.rows.map((r) => r.type);
    // After the purge the email is unreadable, so only the searched username's reservation joins the user stream.
    expect(types).toEqual([
      "username: ValueReserved",
      "UserRegistered",
      "VerificationCodeIssued",
      "SignupConfirmed",
      "ProfileCompleted",
      "UserLoggedIn",
      "AccountDeletionScheduled",
      "AccountPurgeStarted",
      "username: ValueReleased",
      "AccountPurged",
    ]);
    const positions = history.rows.map((r) => r.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(history.rows.find((r) => r.type === "AccountDeletionScheduled")).toMatchObject({ actor: userId, details: expect.stringContaining("Lack of Use") });
    expect(history.rows.find((r) => r.type === "AccountPurged")?.actor).toBe("system");
    // After the purge the personal details read as erased; hashes never appear.
    expect(history.rows.find((r) => r.type === "UserRegistered")?.details).toContain("(personal data erased)");
    const text = JSON.stringify(history);
    expect(text).not.toMatch(/scrypt|codeHash|passwordHash|sessionRef/);
    expect(history.rows.every((r) => r.at && r.actor)).toBe(true);
  });
});
