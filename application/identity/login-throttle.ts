import type { RateLimiter } from "#application/ports/sessions";
import { DomainError } from "#domain/shared/domain-error";
import { normaliseUsername } from "#domain/identity/credentials";

/**
 * Password guessing is limited without letting anyone lock an account
 * (docs/decisions/082):
 * - per account AND address: a few failures, then that address may not try
 *   that account for a while (the attacker's own pair; the owner elsewhere is untouched);
 * - per address: a bound on attempts, whatever the account (one address spraying many names);
 * - per account, from all addresses: past a number of failures, every attempt
 *   is slowed by a growing, capped delay — slowed, never refused, so the right
 *   password still signs the owner in.
 */
export const LOGIN_THROTTLE = {
  perPair: { limit: 5, windowMs: 15 * 60_000 },
  perAddress: { limit: 30, windowMs: 15 * 60_000 },
  perAccount: { freeFailures: 10, windowMs: 15 * 60_000, firstDelayMs: 250, maxDelayMs: 4_000 },
} as const;

/** The answer to every throttled identity step (logins, codes, password checks). */
export const TOO_MANY_ATTEMPTS_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

export interface LoginAdmission {
  /** How long to wait before checking the password (0 = at once). */
  delayMs: number;
}

export class LoginThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  /** Before a password is checked: refuses a throttled address or pair; otherwise says how much to slow down. */
  async admit(username: string, address: string): Promise<LoginAdmission> {
    const { perAddress, perPair, perAccount } = LOGIN_THROTTLE;
    if (!(await this.limiter.hit(addressKey(address), perAddress.limit, perAddress.windowMs)).allowed) throw throttled();
    if (!(await this.limiter.peek(pairKey(username, address), perPair.limit, perPair.windowMs)).allowed) throw throttled();
    const failures = await this.limiter.count(accountKey(username), perAccount.windowMs);
    const over = failures - perAccount.freeFailures;
    return { delayMs: over < 0 ? 0 : Math.min(perAccount.maxDelayMs, perAccount.firstDelayMs * 2 ** over) };
  }

  async failed(username: string, address: string): Promise<void> {
    const { perPair, perAccount } = LOGIN_THROTTLE;
    await this.limiter.hit(pairKey(username, address), perPair.limit, perPair.windowMs);
    await this.limiter.hit(accountKey(username), Number.MAX_SAFE_INTEGER, perAccount.windowMs);
  }

  /** The owner from this address is back: its pair starts afresh (the account's count runs out on its own). */
  async succeeded(username: string, address: string): Promise<void> {
    await this.limiter.reset(pairKey(username, address));
  }

  /** A password reset proved the mailbox: the account is not slowed any more, and this address starts afresh. */
  async forgive(username: string, address: string): Promise<void> {
    await this.limiter.reset(accountKey(username));
    await this.limiter.reset(pairKey(username, address));
  }
}

const throttled = () => new DomainError("LOGIN_THROTTLED", TOO_MANY_ATTEMPTS_MESSAGE);
const addressKey = (address: string) => `login:${address}`;
const pairKey = (username: string, address: string) => `login-pair:${normaliseUsername(username)}:${address}`;
const accountKey = (username: string) => `login-failures:${normaliseUsername(username)}`;

export const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
