import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { startOidcProvider, type TestOidcProvider } from "../support/oidc-test-provider";
import { freePort, startAppServer, type AppServer } from "./support/app-server";
import { completeOnboardingOverHttp, countEvents, decodeSignedCookie, form, pageCsrf, setCookieValue, signUpOverHttp } from "./support/accounts";

/**
 * Sign-in with an OpenID provider over HTTP against the built app and a real
 * provider (oidc-provider on 127.0.0.1): first sign-in, returning sign-in,
 * linking by verified email, denied consent, tampered or missing state.
 */
let app: AppServer;
let provider: TestOidcProvider;

beforeAll(async () => {
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  app = await startAppServer({ env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: "docuchat-test", OIDC_CLIENT_SECRET: "docuchat-test-secret-0123456789" } });
  provider = await startOidcProvider({ port: providerPort, redirectUri: `${app.url}/auth/oidc/callback` });
});

afterAll(async () => {
  await provider?.stop();
  await app?.stop();
});

const callbackPrefix = () => `${app.url}/auth/oidc/callback`;

/** Continue with Google -> the provider's login page. Returns the interaction's login form URL. */
async function startSignIn(session: HttpSession): Promise<{ loginAction: string; interactionUrl: string }> {
  const csrf = await pageCsrf(session, `${app.url}/login`);
  const start = await session.request(`${app.url}/auth/oidc/start`, form({ csrf }));
  expect(start.status).toBe(302);
  const location = start.headers.get("location")!;
  expect(location.startsWith(`${provider.issuer}/auth?`)).toBe(true);
  const authUrl = new URL(location);
  expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authUrl.searchParams.get("state")).toBeTruthy();
  expect(authUrl.searchParams.get("nonce")).toBeTruthy();
  const pendingCookie = setCookieValue(start, "__oidc");
  expect(pendingCookie?.attributes).toMatch(/HttpOnly/i);
  expect(pendingCookie?.attributes).toMatch(/SameSite=Lax/i);
  const { response, url } = await session.follow(location);
  const html = await response.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  expect(action, "the provider's login form").toBeTruthy();
  return { loginAction: new URL(action!, url).href, interactionUrl: url };
}

/** Logs in at the provider and consents; returns the callback URL the provider sends the browser to (not yet requested). */
async function throughProvider(session: HttpSession, accountId: string): Promise<string> {
  const { loginAction } = await startSignIn(session);
  let response = await session.request(loginAction, form({ prompt: "login", login: accountId, password: "anything" }));
  for (let hop = 0; hop < 10; hop++) {
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, provider.issuer).href;
      if (next.startsWith(callbackPrefix())) return next;
      response = await session.request(next);
      continue;
    }
    const html = await response.text();
    const consent = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!consent || !html.includes('name="prompt" value="consent"')) throw new Error(`unexpected provider page: ${html.slice(0, 300)}`);
    response = await session.request(new URL(consent, provider.issuer).href, form({ prompt: "consent" }));
  }
  throw new Error("the provider never redirected back");
}

async function signIn(session: HttpSession, accountId: string) {
  const callback = await throughProvider(session, accountId);
  const response = await session.request(callback);
  return { response, callback };
}

function expectFailure(response: Response) {
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe("/login");
  expect(decodeSignedCookie(setCookieValue(response, "__toast")?.value)).toEqual({ type: "error", message: "Google Authentication Failed!!" });
  expect(setCookieValue(response, "__session")?.value ?? "").toBe("");
}

async function signedInUsername(session: HttpSession): Promise<string | null> {
  const state = (await (await session.request(`${app.url}/api/session`)).json()) as { signedIn: boolean };
  if (!state.signedIn) return null;
  let response = await session.request(`${app.url}/account/security`);
  // An account the provider just created still has to go through onboarding.
  if (response.status === 302 && response.headers.get("location")?.startsWith("/onboarding")) {
    await completeOnboardingOverHttp(session, app.url);
    response = await session.request(`${app.url}/account/security`);
  }
  return response.text();
}

describe("signing in with an OpenID provider (HTTP, real provider)", () => {
  it("creates an account on the first sign-in, and finds the same one on the next", async () => {
    provider.accounts.set("g-newbie", { email: "newbie@example.com" });
    const first = new HttpSession();
    const { response } = await signIn(first, "g-newbie");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(decodeSignedCookie(setCookieValue(response, "__toast")?.value)).toEqual({ type: "success", message: "Logged In Successfully" });
    expect(setCookieValue(response, "__oidc")?.attributes).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const page = await signedInUsername(first);
    expect(page).toContain("newbie@example.com");
    expect(page).toContain("Connected Apps");
    const registered = countEvents(app.dataDir, "UserRegistered");

    const second = new HttpSession();
    const again = await signIn(second, "g-newbie");
    expect(again.response.headers.get("location")).toBe("/");
    expect(countEvents(app.dataDir, "UserRegistered")).toBe(registered);
    expect(await signedInUsername(second)).toContain("newbie@example.com");
  });

  it("links an existing account with the same verified email instead of creating another", async () => {
    const owner = new HttpSession();
    await signUpOverHttp(owner, app.url, { username: "linda", email: "linda@example.com", password: "Secret12!" });
    const registered = countEvents(app.dataDir, "UserRegistered");
    provider.accounts.set("g-linda", { email: "linda@example.com" });
    const browser = new HttpSession();
    const { response } = await signIn(browser, "g-linda");
    expect(response.headers.get("location")).toBe("/");
    expect(countEvents(app.dataDir, "UserRegistered")).toBe(registered);
    expect(countEvents(app.dataDir, "ExternalIdentityLinked")).toBeGreaterThanOrEqual(2);
    const html = (await signedInUsername(browser))!;
    expect(html).toContain("linda@example.com");
    // The password still works too.
    const other = new HttpSession();
    const csrf = await pageCsrf(other, `${app.url}/login`);
    const login = await other.request(`${app.url}/login`, form({ csrf, intent: "login", username: "linda", password: "Secret12!" }));
    expect(login.status).toBe(302);
  });

  it("fails with the spec's toast when the user denies consent", async () => {
    const session = new HttpSession();
    const { interactionUrl } = await startSignIn(session);
    let response = await session.request(`${interactionUrl.replace(/\/$/, "")}/abort`);
    let location = new URL(response.headers.get("location")!, provider.issuer).href;
    // The provider resumes the authorization request, which then redirects back with the error.
    while (!location.startsWith(callbackPrefix()) && location.startsWith(provider.issuer)) {
      response = await session.request(location);
      location = new URL(response.headers.get("location")!, provider.issuer).href;
    }
    expect(location.startsWith(callbackPrefix())).toBe(true);
    expect(new URL(location).searchParams.get("error")).toBe("access_denied");
    expectFailure(await session.request(location));
  });

  it("fails when the state was tampered with, and when the pending cookie is missing or forged", async () => {
    provider.accounts.set("g-tamper", { email: "tamper@example.com" });
    const session = new HttpSession();
    const callback = new URL(await throughProvider(session, "g-tamper"));
    callback.searchParams.set("state", "forged-state-forged-state-forged");
    expectFailure(await session.request(callback.href));

    const noCookie = new HttpSession();
    const callback2 = await throughProvider(noCookie, "g-tamper");
    expectFailure(await new HttpSession().request(callback2));

    const forged = new HttpSession();
    const callback3 = await throughProvider(forged, "g-tamper");
    const original = forged.cookie(app.url, "__oidc")!;
    forged.setCookie(app.url, "__oidc", original.replace(/^.{4}/, "AAAA"), "/auth/oidc");
    expectFailure(await forged.request(callback3));
    expect(countEvents(app.dataDir, "ExternalIdentityLinked")).toBeGreaterThan(0);
  });

  it("refuses a GET to start (no cookie without a CSRF-checked POST) and a POST without the CSRF token", async () => {
    const session = new HttpSession();
    const get = await session.request(`${app.url}/auth/oidc/start`);
    expect(get.status).toBe(302);
    expect(get.headers.get("location")).toBe("/login");
    const post = await session.request(`${app.url}/auth/oidc/start`, form({}));
    expect(post.status).toBe(403);
  });
});
