import { readdirSync, readFileSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { AccountDeletionService } from "#application/identity/account-deletion";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { ConversationService } from "#application/conversation/conversation-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { accountDeletionWorkflowId } from "#workflows/account-deletion";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { ImpersonationService } from "#application/administration/impersonation-service";
import { createTestRuntime } from "../support/test-runtime";

/**
 * "Purge means gone" (ARCHITECTURE §7, issue 19): after an account's purge, no
 * file of the data folder — databases, their WAL and SHM files, blobs, the log —
 * holds the person's email, username or names, in any letter case (the
 * full-text index keeps terms lower-cased).
 */
const ada = { username: "adalovelace1815", email: "ada.byronova@example.org", password: "Secret12!" };
const names = { firstName: "Augustina", lastName: "Byronova" };
const NEEDLES = [ada.username, ada.email, names.firstName, names.lastName].map((s) => s.toLowerCase());

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
afterEach(async () => env?.cleanup());

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });

/** Every file and needle it holds: raw bytes, case-insensitive, no parsing that could skip a free page. */
function personalDataOnDisk(dataDir: string): string[] {
  const hits: string[] = [];
  for (const file of filesUnder(dataDir)) {
    const bytes = readFileSync(file).toString("latin1").toLowerCase();
    for (const needle of NEEDLES) if (bytes.includes(needle)) hits.push(`${path.relative(dataDir, file)}: ${needle}`);
  }
  return hits;
}

/** A PNG header of 250×250: what the profile picture check reads. */
function png(): Uint8Array {
  const bytes = new Uint8Array(64);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, 250);
  new DataView(bytes.buffer).setUint32(20, 250);
  return bytes;
}

const ctx = (actorId?: string): RequestContext => ({ requestId: `req-${Math.random()}`, clientAddress: "10.0.0.9", actorId });

describe("purging an account", () => {
  it("leaves none of the person's email, username or names anywhere in the data folder", async () => {
    env = await createTestRuntime({ logInDataDir: true, env: { ADMIN_USERNAMES: "rootadmin" } });
    const { runtime, clock, dataDir } = env;
    const identity = runtime.container.get(IdentityService);
    const profiles = runtime.container.get(ProfileService);
    const engine = runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);

    // A life on the app: sign-up by mail, onboarding, a picture, wrong and right passwords, a reset mail,
    // a document about herself, a workspace and a question that names her.
    const { userId } = await identity.register(ada, ctx());
    const mail = (await runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1))[0];
    await identity.confirmSignup({ username: ada.username, code: /\d{6}/.exec(mail.text)![0] }, ctx());
    await profiles.completeOnboarding(userId, { ...names, email: ada.email, occupation: "Engineer", language: "English" }, ctx(userId));
    await profiles.changePicture(userId, png(), ctx(userId));
    await identity.login({ username: ada.username, password: "wrong-password" }, ctx()).catch(() => undefined);
    await identity.startSession((await identity.login(ada, ctx())).userId, ctx(userId));
    await identity.requestPasswordReset({ username: ada.username }, ctx());
    const about = `${names.firstName} ${names.lastName} (${ada.email}, user ${ada.username}) wrote the first published algorithm.`;
    const documentId = await uploadTextDocument(runtime, userId, `${names.lastName}-notes.txt`, `${about}\n\n${about}`);
    const { workspaceId } = await runtime.container.get(WorkspaceService).create(userId, { name: `${names.firstName}'s study`, type: "Conversation", documentIds: [documentId] }, ctx(userId));
    await engine.waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
    await settle(runtime);
    const workspace = await runtime.container.get(WorkspaceQueries).get(userId, workspaceId);
    for await (const event of runtime.container.get(ConversationService).ask(userId, workspace.session.activeConversationId!, { text: `What did ${names.firstName} ${names.lastName} write?` }, ctx(userId))) {
      if (event.type !== "text") break;
    }
    // An admin impersonates her with a reason that names her and opens her workspace (decision 103).
    const { userId: adminId } = await identity.register({ username: "rootadmin", email: "root@example.net", password: "Secret12!" }, ctx());
    const adminMail = (await runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1))[0];
    await identity.confirmSignup({ username: "rootadmin", code: /\d{6}/.exec(adminMail.text)![0] }, ctx());
    await settle(runtime);
    const impersonations = runtime.container.get(ImpersonationService);
    const { impersonationId } = await impersonations.start(adminId, { userId, reason: `${names.lastName} asked for help (${ada.email})` }, ctx(adminId));
    await impersonations.recordView({ ...ctx(userId), impersonatorId: adminId, impersonationId }, "workspace", workspaceId, `${names.firstName}'s study`);
    await settle(runtime);
    expect(personalDataOnDisk(dataDir).length).toBeGreaterThan(0); // the scan does find her while she is here

    await runtime.container.get(AccountDeletionService).schedule(userId, { reason: "Lack of Use", confirmation: "Delete My Account" }, ctx(userId));
    clock.advance(runtime.config.accountDeletionGraceMs);
    expect(await engine.waitForCompletion(accountDeletionWorkflowId(userId), 20_000)).toMatchObject({ status: "completed", result: { purged: true } });
    await settle(runtime);

    // While the app runs (WAL and SHM files present), and again after it stopped.
    expect(personalDataOnDisk(dataDir)).toEqual([]);

    await runtime.stop();
    expect(personalDataOnDisk(dataDir)).toEqual([]);
    // Not even her user id in the operational tables: no session history, no mail copies.
    const runtimeDb = new Database(path.join(dataDir, "runtime.db"), { readonly: true });
    expect(runtimeDb.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").get(userId)).toEqual({ n: 0 });
    // Only the admin's own mail is left.
    expect(runtimeDb.prepare("SELECT recipient FROM dev_mailbox").all()).toEqual([{ recipient: "root@example.net" }]);
    runtimeDb.close();
  });
});
