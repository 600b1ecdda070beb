import { TOKENS } from "#application/tokens";
import { defineContextModule } from "#application/shared/context-module";
import { BillingQueries } from "#application/billing/billing-queries";
import { PrepaidPeriodGranter, ReferredSignUpRecorder } from "#application/billing/billing-reactors";
import { CheckoutService } from "#application/billing/checkout";
import { Subscriptions } from "#application/billing/subscriptions";
import { UsageCounters } from "#application/billing/usage-counters";
import { billingProjector } from "#projections/billing/billing.projector";

/** Plans, subscriptions, usage counters and their limits, orders and payments, referrals (docs/decisions/110, 111). */
export const billingModule = defineContextModule({
  name: "billing",
  streamCategories: ["usage", "subscription", "order", "referral"],
  services: [Subscriptions, UsageCounters, BillingQueries, CheckoutService],
  provides: [
    { token: TOKENS.AllowancePolicy, service: Subscriptions },
    { token: TOKENS.UsageMeter, service: UsageCounters },
  ],
  projectors: [billingProjector],
  reactors: [PrepaidPeriodGranter, ReferredSignUpRecorder],
});
