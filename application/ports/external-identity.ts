/**
 * Sign-in through an OpenID provider (Google, or any other): the adapter runs
 * authorization code + PKCE + state + nonce and validates the ID token; the
 * application only sees claims it can trust.
 */

/** What a validated ID token says about the user. */
export interface VerifiedExternalClaims {
  issuer: string;
  providerName: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** Kept by the browser (in a short-lived signed httpOnly cookie) between the redirect out and the callback. */
export interface PendingAuthorization {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface ExternalIdentityProvider {
  readonly providerName: string;
  /** Where to send the browser, and what the callback must be checked against. */
  begin(): Promise<{ authorizationUrl: URL; pending: PendingAuthorization }>;
  /**
   * Validates the callback (state, error parameters), exchanges the code with
   * the PKCE verifier and validates the ID token (signature, issuer, audience,
   * expiry, nonce). Throws on anything wrong.
   */
  complete(callbackParams: URLSearchParams, pending: PendingAuthorization): Promise<VerifiedExternalClaims>;
}
