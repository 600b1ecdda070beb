import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import type { PasswordHasher } from "#application/ports/sessions";

/**
 * scrypt with OWASP's parameters (N=2^17, r=8, p=1). Parameters are stored in
 * the hash, so they can be raised later without breaking old hashes.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  constructor(private readonly params: { N: number; r: number; p: number } = { N: 2 ** 17, r: 8, p: 1 }) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.params);
    const { N, r, p } = this.params;
    return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    const [scheme, N, r, p, salt, expected] = encoded.split("$");
    if (scheme !== "scrypt" || !salt || !expected) return false;
    const wanted = Buffer.from(expected, "base64url");
    const key = await derive(password, Buffer.from(salt, "base64url"), { N: Number(N), r: Number(r), p: Number(p) });
    return key.length === wanted.length && timingSafeEqual(key, wanted);
  }
}

function derive(password: string, salt: Buffer, { N, r, p }: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}
