import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { Aggregate } from "#application/shared/aggregate";
import type { AllowancePolicy } from "#application/shared/allowance-policy";
import {
  allowanceMonth,
  type PageAllowanceCommand,
  type PageAllowanceEvent,
  type PageAllowanceState,
  pageAllowanceError,
  pageAllowanceId,
  pagesUsed,
} from "#domain/billing/page-allowance";
import { pageAllowanceAggregate } from "#domain/billing/page-allowance-events";
import { DomainError } from "#domain/shared/domain-error";

/** Concurrent reservations at the edge of the limit conflict on one stream; each conflict re-reads and decides again. */
const RESERVATION_ATTEMPTS = 50;

/**
 * The pages a user's documents hold this month, counted as extraction measured
 * them, on the user's allowance stream for the month (strongly consistent),
 * never as the browser declared them; the limit comes from the allowance
 * policy (docs/decisions/090). It moves to the billing context with its module.
 */
@injectable()
export class PageAllowance {
  private readonly allowances: Aggregate<PageAllowanceCommand, PageAllowanceEvent, PageAllowanceState>;

  constructor(
    @inject(TOKENS.EventStore) eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.AllowancePolicy) private readonly policy: AllowancePolicy,
  ) {
    this.allowances = new Aggregate(eventStore, ids, pageAllowanceAggregate);
  }

  /** Pages used and left in the month of `at` (the limit is Infinity on a plan without one). */
  async pages(userId: string, at: Date): Promise<{ used: number; limit: number; remaining: number }> {
    const { state } = await this.allowances.load(pageAllowanceId(userId, allowanceMonth(at)));
    const used = pagesUsed(state);
    const limit = (await this.policy.limit(userId, "pagesPerMonth")) ?? Number.POSITIVE_INFINITY;
    return { used, limit, remaining: Math.max(0, limit - used) };
  }

  /** The early answer on what the browser declares: refuses a batch that cannot fit; holds nothing. */
  async checkDeclaredPages(userId: string, declaredPages: number, at: Date): Promise<void> {
    const { used, limit } = await this.pages(userId, at);
    const error = pageAllowanceError(declaredPages, used, limit);
    if (error) throw new DomainError("PAGE_LIMIT", error);
  }

  /** Holds a document's measured pages in the month it was registered, or refuses with PAGE_LIMIT. Idempotent. */
  async reservePages(userId: string, month: Date, documentId: string, pages: number, metadata: EventMetadata, now: Date): Promise<void> {
    const limit = await this.policy.limit(userId, "pagesPerMonth");
    await this.allowances.handle(
      pageAllowanceId(userId, allowanceMonth(month)),
      { type: "ReservePages", documentId, pages, limit, now },
      { metadata, maxAttempts: RESERVATION_ATTEMPTS },
    );
  }

  /** Gives back what a document held (nothing when it held nothing). */
  async releasePages(userId: string, month: Date, documentId: string, metadata: EventMetadata, now: Date): Promise<void> {
    await this.allowances.handle(pageAllowanceId(userId, allowanceMonth(month)), { type: "ReleasePages", documentId, now }, { metadata, maxAttempts: RESERVATION_ATTEMPTS });
  }
}
