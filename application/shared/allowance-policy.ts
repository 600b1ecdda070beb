import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { DEFAULT_PLAN, PLANS, type PlanLimits } from "#domain/billing/plans";
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
import { Aggregate } from "./aggregate";

/** Concurrent reservations at the edge of the limit conflict on one stream; each conflict re-reads and decides again. */
const RESERVATION_ATTEMPTS = 50;

/**
 * What a user's plan allows (ARCHITECTURE §2, one policy for every context;
 * the billing context fills in plans and subscriptions). Pages are counted as
 * extraction measured them, on the user's allowance stream for the month,
 * never as the browser declared them (docs/decisions/090).
 */
@injectable()
export class AllowancePolicy {
  private readonly allowances: Aggregate<PageAllowanceCommand, PageAllowanceEvent, PageAllowanceState>;

  constructor(@inject(TOKENS.EventStore) eventStore: EventStore, @inject(TOKENS.Ids) ids: IdGenerator) {
    this.allowances = new Aggregate(eventStore, ids, pageAllowanceAggregate);
  }

  /** Until payments exist, everyone is on the free plan. */
  limits(_userId: string): PlanLimits {
    return PLANS[DEFAULT_PLAN].limits;
  }

  /** Pages used and left in the month of `at`, read from the allowance stream (strongly consistent). */
  async pages(userId: string, at: Date): Promise<{ used: number; limit: number; remaining: number }> {
    const { state } = await this.allowances.load(pageAllowanceId(userId, allowanceMonth(at)));
    const used = pagesUsed(state);
    const limit = this.limits(userId).pagesPerMonth;
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
    await this.allowances.handle(
      pageAllowanceId(userId, allowanceMonth(month)),
      { type: "ReservePages", documentId, pages, limit: this.limits(userId).pagesPerMonth, now },
      { metadata, maxAttempts: RESERVATION_ATTEMPTS },
    );
  }

  /** Gives back what a document held (nothing when it held nothing). */
  async releasePages(userId: string, month: Date, documentId: string, metadata: EventMetadata, now: Date): Promise<void> {
    await this.allowances.handle(pageAllowanceId(userId, allowanceMonth(month)), { type: "ReleasePages", documentId, now }, { metadata, maxAttempts: RESERVATION_ATTEMPTS });
  }
}
