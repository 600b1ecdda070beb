import { describe, expect, it } from "vitest";
import { AesKeyCipher } from "./aes-key-cipher";

describe("AesKeyCipher", () => {
  const old = "old-secret-old-secret-old-secret-0000";
  const current = "new-secret-new-secret-new-secret-1111";
  it("seals with a key id and opens again; the plaintext never appears", () => {
    const cipher = new AesKeyCipher(current);
    const sealed = cipher.seal("sk-abc");
    expect(sealed).toMatch(/^k[\w-]{8}:v1\./);
    expect(sealed).not.toContain("sk-abc");
    expect(cipher.open(sealed)).toBe("sk-abc");
    expect(cipher.isStale(sealed)).toBe(false);
  });
  it("rotates: values sealed under a previous secret still open and are marked stale", () => {
    const sealedOld = new AesKeyCipher(old).seal("sk-abc");
    const rotated = new AesKeyCipher(current, [old]);
    expect(rotated.open(sealedOld)).toBe("sk-abc");
    expect(rotated.isStale(sealedOld)).toBe(true);
    expect(() => new AesKeyCipher(current).open(sealedOld)).toThrow(/not configured/);
  });
  it("detects tampering", () => {
    const cipher = new AesKeyCipher(current);
    const sealed = cipher.seal("sk-abc");
    expect(() => cipher.open(`${sealed.slice(0, -3)}AAA`)).toThrow();
  });
});
