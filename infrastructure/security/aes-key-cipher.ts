import { createHmac, hkdfSync } from "node:crypto";
import type { KeyCipher } from "#application/ports/key-cipher";
import { openWith, sealWith } from "./sealing";

/**
 * AES-256-GCM under a key derived (HKDF-SHA-256) from the app secret for this
 * one purpose. Sealed form: "<keyId>:<v1.iv.ciphertext.tag>", where keyId is a
 * short fingerprint of the secret (not the key), so a value says which secret
 * opens it. Rotation (docs/decisions/030): set the new APP_SECRET and list the
 * old one in APP_SECRET_PREVIOUS; old values open with it and are re-sealed
 * under the new key the next time they are used.
 */
export class AesKeyCipher implements KeyCipher {
  private readonly current: { id: string; key: Buffer };
  private readonly keys = new Map<string, Buffer>();

  constructor(secret: string, previousSecrets: string[] = []) {
    this.current = derive(secret);
    for (const s of [secret, ...previousSecrets]) {
      const { id, key } = derive(s);
      if (!this.keys.has(id)) this.keys.set(id, key);
    }
  }

  seal(plaintext: string): string {
    return `${this.current.id}:${sealWith(this.current.key, Buffer.from(plaintext, "utf8"))}`;
  }

  open(sealed: string): string {
    const at = sealed.indexOf(":");
    const key = at > 0 ? this.keys.get(sealed.slice(0, at)) : undefined;
    if (!key) throw new Error("The key that sealed this value is not configured (APP_SECRET_PREVIOUS?)");
    return openWith(key, sealed.slice(at + 1)).toString("utf8");
  }

  isStale(sealed: string): boolean {
    return !sealed.startsWith(`${this.current.id}:`);
  }
}

function derive(secret: string): { id: string; key: Buffer } {
  const id = `k${createHmac("sha256", secret).update("docuchat-keyset-key-id").digest("base64url").slice(0, 8)}`;
  const key = Buffer.from(hkdfSync("sha256", secret, "docuchat", "keyset-api-key-encryption", 32));
  return { id, key };
}
