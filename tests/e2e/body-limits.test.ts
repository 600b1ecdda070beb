import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { decodeSignedCookie, signUpOverHttp } from "./support/accounts";
import { routesWithActions } from "./support/action-routes";
import { startAppServer, type AppServer } from "./support/app-server";

/**
 * Every route reads a request body only up to its limit, counted as the bytes
 * arrive (issue 30, docs/decisions/200): a chunked body with no length is
 * refused with 413 naming the limit, reading stops, and the web process's
 * memory stays where it was.
 */
const MB = 1024 * 1024;

/**
 * Sends a chunked body (no Content-Length) of up to `total` bytes, written only as fast as the server reads it,
 * and resolves with the answer as soon as it comes (the server may close the connection before the body ends).
 */
function sendChunked(method: string, url: string, headers: Record<string, string>, total: number): Promise<{ status: number; text: string; sent: number }> {
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(url, { method, headers: { ...headers, "Transfer-Encoding": "chunked" } }, (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8"), sent });
      });
      response.on("error", reject);
    });
    request.on("error", (error) => answered || reject(error));
    const write = () => {
      while (!answered && sent < total) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) return void request.once("drain", write);
      }
      if (!answered) request.end();
    };
    write();
  });
}

/** Resident memory of a process, in bytes. */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024;
}

/** The web process the supervisor started (WEB_PROCESSES=1). */
function webProcess(supervisor: number): number {
  const children = readFileSync(`/proc/${supervisor}/task/${supervisor}/children`, "utf8").trim().split(/\s+/).map(Number);
  const web = children.find((pid) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes("DOCUCHAT_PROCESS=web"));
  if (!web) throw new Error("no web process");
  return web;
}

describe("request bodies past their route's limit", () => {
  let app: AppServer;
  const session = new HttpSession();
  let csrf = "";

  beforeAll(async () => {
    app = await startAppServer({ env: { WEB_PROCESSES: "1" } });
    const username = `limit${Date.now().toString(36)}`;
    await signUpOverHttp(session, app.url, { username, email: `${username}@example.com`, password: "Reader#2024" });
    csrf = String(decodeSignedCookie(session.cookie(app.url, "__csrf")));
  });
  afterAll(async () => {
    await app?.stop();
  });

  const send = (method: string, url: string, total: number, signedIn = true) => {
    const cookie = session
      .cookies(app.url)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    const headers = { "Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": csrf, ...(signedIn ? { Cookie: cookie } : {}) };
    return sendChunked(method, `${app.url}${url}`, headers, total);
  };

  it("refuses a chunked body with no length at every route that reads one, with 413 naming the limit", async () => {
    const routes = routesWithActions();
    expect(routes.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    const refusedUnread: string[] = [];
    for (const { file, url } of routes) {
      // The first method the route takes (an API route answers the others 405 before reading anything).
      let answer = { status: 405, text: "", sent: 0 };
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        answer = await send(method, url, 400 * MB);
        if (answer.status !== 405) break;
      }
      const { status, text, sent } = answer;
      // Reading stopped near the limit (the largest is an audio upload's 100 MB), never at the end of 400 MB.
      if (sent > 120 * MB) wrong.push(`${file}: read ${Math.round(sent / MB)} MB`);
      if (status === 413) {
        if (!/larger than \d+ (KB|MB)|can be at most|exceeds/.test(text)) wrong.push(`${file}: 413 without its limit: ${text.slice(0, 160)}`);
        continue;
      }
      // A route may refuse before it reads the body (no such community, payments not configured); then it read none of it.
      if (status >= 500 && status !== 501) wrong.push(`${file} (${url}) answered ${status}: ${text.slice(0, 160)}`);
      else if (sent > 16 * MB) wrong.push(`${file} answered ${status} after reading ${Math.round(sent / MB)} MB`);
      else refusedUnread.push(file);
    }
    expect(wrong).toEqual([]);
    // Most routes read their body; those that refused first are few.
    expect(refusedUnread.length, refusedUnread.join(", ")).toBeLessThan(routes.length / 5);
  });

  it("keeps the web process's memory flat under four parallel 400 MB anonymous bodies", async () => {
    const web = webProcess(app.pid);
    const before = rss(web);
    const answers = await Promise.all(["/login", "/signup.data", "/forgot-password", "/login"].map((url) => send("POST", url, 400 * MB, false)));
    for (const answer of answers) expect(answer.status).toBe(413);
    expect(answers.map((a) => a.text)).toEqual(Array(4).fill("The request body is larger than 64 KB, this address's limit."));
    expect(rss(web) - before).toBeLessThan(50 * MB);
  });
});
