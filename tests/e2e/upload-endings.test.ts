import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { startAppServer, type AppServer } from "./support/app-server";
import { pageCsrf, signUpOverHttp } from "./support/accounts";
import { waitUntil } from "./support/library";

/** Issue 19 item 3 over HTTP against the built app: a broken PUT ends its upload, a stuck upload can be deleted. */

let app: AppServer;
const session = new HttpSession();
let csrf: string;

beforeAll(async () => {
  app = await startAppServer();
  const username = `tabcloser${Date.now().toString(36)}`;
  await signUpOverHttp(session, app.url, { username, email: `${username}@example.com`, password: "Reader#2024" });
  csrf = await pageCsrf(session, `${app.url}/history/documents`);
});
afterAll(async () => app?.stop());

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  body: body === undefined ? undefined : JSON.stringify(body),
  headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
});

async function register(name: string, size: number): Promise<{ url: string; document_id: string }> {
  const response = await session.request(`${app.url}/api/documents`, json("POST", { document_name: name, document_type: "application/pdf", document_size: size, page_count: 1 }));
  expect(response.status).toBe(201);
  return (await response.json()) as { url: string; document_id: string };
}

async function listed(documentId: string): Promise<{ status: string; failure_reason: string | null } | undefined> {
  const { documents } = (await (await session.request(`${app.url}/api/documents?limit=100`)).json()) as { documents: { document_id: string; status: string; failure_reason: string | null }[] };
  return documents.find((d) => d.document_id === documentId);
}

/** Starts the PUT, sends part of the body it announced, then drops the connection, as a closed tab or a lost network does. */
function dropMidUpload(uploadUrl: string, announced: number): Promise<void> {
  const target = new URL(uploadUrl, app.url);
  const cookie = session.cookies(app.url).map((c) => `${c.name}=${c.value}`).join("; ");
  return new Promise((resolve) => {
    const request = http.request(target, { method: "PUT", headers: { Cookie: cookie, "Content-Type": "application/pdf", "Content-Length": String(announced) } });
    request.on("error", () => resolve());
    request.on("close", () => resolve());
    request.write(Buffer.alloc(64 * 1024, 0x25), () => setTimeout(() => request.destroy(), 200));
  });
}

describe("an upload that does not arrive", () => {
  it("ends as failed with 'The upload did not complete' as soon as its PUT breaks off", async () => {
    const size = 4 * 1024 * 1024;
    const { url, document_id } = await register("dropped.pdf", size);
    expect((await listed(document_id))?.status).toBe("UPLOADING");
    await dropMidUpload(url, size);
    await waitUntil(async () => (await listed(document_id))?.status === "FAILED", "the broken upload to fail");
    expect(await listed(document_id)).toMatchObject({ status: "FAILED", failure_reason: "The upload did not complete" });
  });

  it("can be deleted while it still waits for its file", async () => {
    const { document_id } = await register("never-sent.pdf", 2048);
    expect((await listed(document_id))?.status).toBe("UPLOADING");
    const response = await session.request(`${app.url}/api/documents/${document_id}`, json("DELETE"));
    expect(response.status).toBe(204);
    expect(await listed(document_id)).toBeUndefined();
  });
});
