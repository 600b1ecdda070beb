import path from "node:path";
import Database from "better-sqlite3";
import { csrfFrom, HttpSession } from "../../support/http-session";

/** Decodes a Remix signed cookie's value (base64 JSON before the signature). */
export function decodeSignedCookie(value: string | undefined): unknown {
  if (!value) return null;
  const raw = decodeURIComponent(value);
  const body = raw.slice(0, raw.lastIndexOf("."));
  return JSON.parse(decodeURIComponent(escape(Buffer.from(body, "base64").toString("binary"))));
}

/** The Set-Cookie value named `name` in a response, or undefined. */
export function setCookieValue(response: Response, name: string): { value: string; attributes: string } | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...rest] = header.split(";");
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq).trim() === name) return { value: pair.slice(eq + 1), attributes: rest.join(";") };
  }
  return undefined;
}

export async function pageCsrf(session: HttpSession, url: string): Promise<string> {
  const response = await session.request(url);
  return csrfFrom(await response.text());
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } };
}

/** The newest 6-digit code mailed to `email`, from /dev/mailbox. */
export async function mailedCode(session: HttpSession, baseUrl: string, email: string): Promise<string> {
  const html = await (await session.request(`${baseUrl}/dev/mailbox`)).text();
  const row = html.indexOf(`data-to="${email}"`);
  if (row < 0) throw new Error(`no mail to ${email}`);
  const match = /data-testid="mail-code"[^>]*>(\d{6})</.exec(html.slice(row));
  if (!match) throw new Error(`no code in the mail to ${email}`);
  return match[1];
}

/**
 * Signs up, confirms and completes onboarding over HTTP; the session ends up signed in on a finished account.
 * The code comes from /dev/mailbox unless `codeFor` reads it elsewhere (a production-mode app mails it over SMTP).
 */
export async function signUpOverHttp(
  session: HttpSession,
  baseUrl: string,
  account: { username: string; email: string; password: string },
  codeFor: (email: string) => Promise<string> = (email) => mailedCode(session, baseUrl, email),
) {
  const csrf = await pageCsrf(session, `${baseUrl}/signup`);
  const signup = await session.request(`${baseUrl}/signup`, form({ csrf, intent: "signup", ...account }));
  if (signup.status !== 200) throw new Error(`sign-up answered ${signup.status}`);
  const code = await codeFor(account.email);
  const confirm = await session.request(`${baseUrl}/signup`, form({ csrf, intent: "confirm", username: account.username, code }));
  if (confirm.status !== 302 && confirm.status !== 204 && confirm.status !== 200) throw new Error(`confirm answered ${confirm.status}`);
  await completeOnboardingOverHttp(session, baseUrl);
}

/** 'Lets Get You Onboarded!' over HTTP: every page redirects there until it is done. */
export async function completeOnboardingOverHttp(session: HttpSession, baseUrl: string) {
  const csrf = await pageCsrf(session, `${baseUrl}/onboarding`);
  const done = await session.request(
    `${baseUrl}/onboarding`,
    form({ csrf, firstName: "Test", lastName: "Reader", occupation: "Engineer", language: "English" }),
  );
  if (done.status !== 302 && done.status !== 204 && done.status !== 200) throw new Error(`onboarding answered ${done.status}`);
}

/** Counts events of a type in the app's event log (read-only; the app keeps running). */
export function countEvents(dataDir: string, type: string): number {
  const db = new Database(path.join(dataDir, "events.db"), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM events WHERE type = ?").get(type) as { n: number }).n;
  } finally {
    db.close();
  }
}
