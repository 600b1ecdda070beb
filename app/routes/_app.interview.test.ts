import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { DevMailbox } from "#application/ports/mailer";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { getCookies } from "#app/utils/cookies.server";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { uploadTextDocument } from "../../tests/support/library-fixtures";
import { action, loader } from "./_app.interview";

const ctx = { requestId: "interview-test", clientAddress: "127.0.0.1" };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
let userId: string;

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  const identity = env.runtime.container.get(IdentityService);
  ({ userId } = await identity.register({ username: "candidate", email: "candidate@example.com", password: "Secret12!" }, ctx));
  const code = /\d{6}/.exec((await env.runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1))[0].text)![0];
  await identity.confirmSignup({ username: "candidate", code }, ctx);
  await env.runtime.container
    .get(ProfileService)
    .completeOnboarding(userId, { firstName: "Cand", lastName: "Idate", email: "candidate@example.com", occupation: "Interviewee", language: "" }, { ...ctx, actorId: userId });
  await uploadTextDocument(env.runtime, userId, "resume.txt", "Led the migration of the billing system to event sourcing.");
});
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

/** A browser that just signed in: a fresh session and CSRF cookie, nothing else remembered. */
async function freshBrowser() {
  const { token } = await env.runtime.container.get(IdentityService).startSession(userId, ctx);
  const { session, csrf } = await getCookies();
  const cookie = [await session.serialize(token), await csrf.serialize("csrf-token")].map((c) => c.split(";")[0]).join("; ");
  return {
    open: () => loader({ request: new Request("http://localhost/interview", { headers: { Cookie: cookie } }), params: {}, context: {} }),
    start: async () => {
      const body = new FormData();
      body.set("csrf", "csrf-token");
      return action({ request: new Request("http://localhost/interview", { method: "POST", body, headers: { Cookie: cookie } }), params: {}, context: {} });
    },
  };
}

describe("the assessment page", () => {
  it("keeps the assessment on the server: a browser with cleared cookies continues it, and it ends an hour after the start", async () => {
    const first = await freshBrowser();
    expect((await first.open()).state).toBe("new");
    const started = await first.start();
    expect(started).toBeInstanceOf(Response);
    const location = (started as Response).headers.get("Location")!;
    const workspaceId = /^\/workspace\/([^/]+)\/launch$/.exec(location)?.[1];
    expect(workspaceId).toBeTruthy();

    env.clock.advance(10 * 60_000);
    const second = await freshBrowser();
    const page = await second.open();
    expect(page.state).toBe("running");
    expect(page.interview?.workspaceId).toBe(workspaceId);
    expect(Date.parse(page.interview!.endsAt) - Date.parse(page.serverNow)).toBe(50 * 60_000);
    const again = (await second.start()) as Response;
    expect(again.headers.get("Location")).toMatch(new RegExp(`^/workspace/${workspaceId}(/launch)?$`));
    expect(await env.runtime.container.get(WorkspaceQueries).count(userId)).toBe(1);

    env.clock.advance(50 * 60_000);
    const third = await freshBrowser();
    expect((await third.open()).state).toBe("ended");
    const refused = (await third.start()) as unknown as { data: { message: string }; init: { status: number } };
    expect(refused.init.status).toBe(409);
    expect(refused.data.message).toBe("This assessment has ended.");
    const stream = await env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`assessment-${userId}`);
    expect(stream.map((e) => e.type)).toEqual(["AssessmentStarted", "AssessmentDeadlineSet", "AssessmentEnded"]);
    expect(await env.runtime.container.get(WorkspaceQueries).count(userId)).toBe(1);
  });
});
