import * as oidc from "openid-client";
import type { ExternalIdentityProvider, PendingAuthorization, VerifiedExternalClaims } from "#application/ports/external-identity";
import type { OidcConfig } from "#infrastructure/config/config";

const SCOPE = "openid email profile";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Any OpenID provider through openid-client v6. Discovery of the operator's
 * issuer is configuration, not user input, so it does not go through the
 * egress module (docs/decisions/010); plain http is accepted only for a
 * provider on this machine (development and tests).
 */
export class OpenIdConnectProvider implements ExternalIdentityProvider {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(private readonly settings: OidcConfig) {}

  get providerName(): string {
    return this.settings.providerName;
  }

  async begin(): Promise<{ authorizationUrl: URL; pending: PendingAuthorization }> {
    const config = await this.discover();
    const pending: PendingAuthorization = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: "S256",
      state: pending.state,
      nonce: pending.nonce,
    });
    return { authorizationUrl, pending };
  }

  async complete(callbackParams: URLSearchParams, pending: PendingAuthorization): Promise<VerifiedExternalClaims> {
    const config = await this.discover();
    // The redirect URL as registered with the provider (not the Host header the request came in with).
    const currentUrl = new URL(this.settings.redirectUrl);
    for (const [name, value] of callbackParams) currentUrl.searchParams.append(name, value);
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error("The provider returned no ID token");
    return {
      issuer: claims.iss,
      providerName: this.settings.providerName,
      subject: claims.sub,
      email: typeof claims.email === "string" ? claims.email : null,
      emailVerified: claims.email_verified === true || claims.email_verified === "true",
    };
  }

  /** Discovery once, on first use; a failure is not cached, so a provider that was down is retried. */
  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= this.runDiscovery().catch((error: unknown) => {
      this.configuration = null;
      throw error;
    });
    return this.configuration;
  }

  private async runDiscovery(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const insecure = issuer.protocol === "http:";
    if (insecure && !LOOPBACK.has(issuer.hostname)) {
      throw new Error("OIDC_ISSUER must use https (plain http is accepted only for a provider on this machine)");
    }
    const { clientId, clientSecret } = this.settings;
    return oidc.discovery(
      issuer,
      clientId,
      clientSecret ?? undefined,
      clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(),
      { timeout: 10, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
    );
  }
}
