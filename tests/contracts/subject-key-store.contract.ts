import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SubjectKeyStore } from "#application/ports/personal-data";

export interface SubjectKeyStoreFixture {
  /**
   * A new store (as another process would open it) over the fixture's one
   * storage, wrapping keys under `appSecret`.
   */
  open(appSecret: string): Promise<SubjectKeyStore>;
  cleanup(): Promise<void>;
}

export const CONTRACT_APP_SECRET = "contract-secret-contract-secret-0123456789";

/**
 * Shared guarantees of every SubjectKeyStore (crypto-shredding, docs/decisions/
 * 006 and 041). Subject ids are unique per test, so a store on a shared server
 * needs no clean slate.
 */
export function subjectKeyStoreContract(name: string, makeFixture: () => Promise<SubjectKeyStoreFixture>): void {
  describe(`SubjectKeyStore contract: ${name}`, () => {
    let fixture: SubjectKeyStoreFixture;
    let store: SubjectKeyStore;
    let run: string;
    const subject = (n: string) => `${run}-user-${n}`;

    beforeEach(async () => {
      fixture = await makeFixture();
      store = await fixture.open(CONTRACT_APP_SECRET);
      run = randomUUID().replace(/-/g, "").slice(0, 10);
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("creates a 32-byte key on first use and returns the same key afterwards", async () => {
      const key = await store.keyFor(subject("a"), { create: true });
      expect(key).toBeInstanceOf(Buffer);
      expect(key!.length).toBe(32);
      expect(await store.keyFor(subject("a"), { create: true })).toEqual(key);
      expect(await store.keyFor(subject("a"), { create: false })).toEqual(key);
    });

    it("gives each subject its own key", async () => {
      const a = await store.keyFor(subject("a"), { create: true });
      const b = await store.keyFor(subject("b"), { create: true });
      expect(a).not.toEqual(b);
    });

    it("answers null without create, and creates nothing then", async () => {
      expect(await store.keyFor(subject("nobody"), { create: false })).toBeNull();
      expect(await store.keyFor(subject("nobody"), { create: false })).toBeNull();
      expect(await (await fixture.open(CONTRACT_APP_SECRET)).keyFor(subject("nobody"), { create: false })).toBeNull();
    });

    it("ends concurrent first uses, in one process or several, with one key", async () => {
      const stores = [store, await fixture.open(CONTRACT_APP_SECRET), await fixture.open(CONTRACT_APP_SECRET)];
      const keys = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % stores.length].keyFor(subject("race"), { create: true })));
      for (const key of keys) expect(key).toEqual(keys[0]);
      expect(await (await fixture.open(CONTRACT_APP_SECRET)).keyFor(subject("race"), { create: false })).toEqual(keys[0]);
    });

    it("forgets: null from then on, here and for any store opened later; the subject's old key never comes back", async () => {
      const key = await store.keyFor(subject("gone"), { create: true });
      const other = await store.keyFor(subject("stays"), { create: true });
      await store.forget(subject("gone"));
      expect(await store.keyFor(subject("gone"), { create: false })).toBeNull();
      const later = await fixture.open(CONTRACT_APP_SECRET);
      expect(await later.keyFor(subject("gone"), { create: false })).toBeNull();
      expect(await later.keyFor(subject("stays"), { create: false })).toEqual(other);
      expect(await store.keyFor(subject("gone"), { create: true })).not.toEqual(key);
    });

    it("forgets idempotently, and forgetting an unknown subject is fine", async () => {
      await store.keyFor(subject("twice"), { create: true });
      await store.forget(subject("twice"));
      await store.forget(subject("twice"));
      await store.forget(subject("never-seen"));
      expect(await store.keyFor(subject("twice"), { create: false })).toBeNull();
    });

    it("survives a new store (a restart) with the same app secret", async () => {
      const key = await store.keyFor(subject("kept"), { create: true });
      const reopened = await fixture.open(CONTRACT_APP_SECRET);
      expect(await reopened.keyFor(subject("kept"), { create: false })).toEqual(key);
    });

    it("cannot unwrap keys under a different app secret", async () => {
      await store.keyFor(subject("sealed"), { create: true });
      const wrongSecret = await fixture.open("another-secret-another-secret-0123456789");
      await expect(wrongSecret.keyFor(subject("sealed"), { create: false })).rejects.toThrow();
    });
  });
}
