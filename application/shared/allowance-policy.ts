import { injectable } from "inversify";
import { DEFAULT_PLAN, type PlanLimits, PLANS } from "#domain/billing/plans";

/** What a plan limits per month (spec 001 §9). */
export type Allowance = keyof PlanLimits;

/**
 * How much of an allowance a user's plan grants this month. Each context
 * counts its own usage and asks this policy for the limit; the billing
 * context will answer from the user's subscription (docs/decisions/051).
 */
export interface AllowancePolicy {
  /** The monthly limit, or null when the plan has none. */
  limit(userId: string, allowance: Allowance): Promise<number | null>;
}

/** Until billing exists, everyone is on the free plan. */
@injectable()
export class DefaultPlanAllowance implements AllowancePolicy {
  async limit(_userId: string, allowance: Allowance): Promise<number | null> {
    return PLANS[DEFAULT_PLAN].limits[allowance];
  }
}
