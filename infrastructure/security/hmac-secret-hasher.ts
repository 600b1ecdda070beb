import { createHmac } from "node:crypto";
import type { SecretHasher } from "#application/ports/sessions";

/** HMAC-SHA-256 under the app secret; the purpose separates the uses of one key. */
export class HmacSecretHasher implements SecretHasher {
  constructor(private readonly secret: string) {}

  hash(purpose: string, value: string): string {
    return createHmac("sha256", this.secret).update(purpose).update("\0").update(value).digest("base64url");
  }
}
