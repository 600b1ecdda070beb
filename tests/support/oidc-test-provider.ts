import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 for tests. Its dev
 * interactions are the login page (any login, any password: the login is the
 * account id) and the consent page; "[ Cancel ]" denies (access_denied).
 */
export type TestAccount = { email: string; emailVerified?: boolean };

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims per account id; unknown ids get `<id>@example.com`, verified. */
  accounts: Map<string, TestAccount>;
  stop: () => Promise<void>;
};

export async function startOidcProvider(options: { port?: number; redirectUri: string }): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  const clientId = "docuchat-test";
  const clientSecret = "docuchat-test-secret-0123456789";
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id) ?? { email: `${id}@example.com` };
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: account.email, email_verified: account.emailVerified ?? true };
        },
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    // Put the scope's claims (email) into the ID token, as Google does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
    pkce: { required: () => true },
  });
  // Quiet: the provider logs denied requests, which the tests cause on purpose.
  provider.on("server_error", () => undefined);
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
