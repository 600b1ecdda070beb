import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { decodeSignedCookie, signUpOverHttp } from "./support/accounts";
import { routesWithActions } from "./support/action-routes";
import { startAppServer, type AppServer } from "./support/app-server";

/**
 * A POST whose body is not what the route reads (issue 44 item 14) is the
 * sender's mistake: every route with an action answers it with a 4xx, never
 * a 500, signed in or not, and a 415 or 400 about the body says what the
 * route takes (docs/decisions/270).
 */
const BODIES: { name: string; type?: string; body: string }[] = [
  { name: "text", type: "text/plain", body: "a=b" },
  { name: "JSON", type: "application/json", body: '{"a":"b"}' },
  { name: "broken multipart", type: "multipart/form-data; boundary=XYZ", body: '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb' },
  { name: "empty", body: "" },
];

describe("bodies that are not what a route reads", () => {
  let app: AppServer;
  const session = new HttpSession();
  let csrf = "";

  beforeAll(async () => {
    app = await startAppServer({ env: { WEB_PROCESSES: "1" } });
    const username = `odd${Date.now().toString(36)}`;
    await signUpOverHttp(session, app.url, { username, email: `${username}@example.com`, password: "Reader#2024" });
    csrf = String(decodeSignedCookie(session.cookie(app.url, "__csrf")));
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers every route's action a text, JSON, broken multipart or empty body with a 4xx that says what it takes", async () => {
    const routes = routesWithActions();
    expect(routes.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    let sent = 0;
    for (const signedIn of [false, true]) {
      const client = signedIn ? session : new HttpSession();
      for (const { file, url, page } of routes) {
        // A page's forms post to its URL, and through single fetch to its `.data` URL.
        const targets = page && signedIn ? [url, url.replace(/(\?|$)/, ".data$1")] : [url];
        for (const target of targets) {
          for (const { name, type, body } of BODIES) {
            const headers: Record<string, string> = { "X-CSRF-Token": csrf };
            if (type) headers["Content-Type"] = type;
            // The first method the route takes (an API route answers the others 405 before reading anything).
            let response: Response | undefined;
            for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
              response = await client.request(`${app.url}${target}`, { method, headers, body });
              sent++;
              if (response.status !== 405) break;
            }
            const status = response!.status;
            const text = await response!.text();
            const who = `${signedIn ? "signed in" : "signed out"} ${name} to ${target} (${file})`;
            if (status >= 500 && status !== 501) wrong.push(`${who} answered ${status}: ${text.slice(0, 120)}`);
            else if (status === 415 && !/accepts|only/i.test(text)) wrong.push(`${who}: 415 without what it takes: ${text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(400);
  });
});
