import { TOKENS } from "#application/tokens";
import { defineContextModule } from "#application/shared/context-module";
import { BillingQueries } from "#application/billing/billing-queries";
import { Subscriptions } from "#application/billing/subscriptions";
import { UsageCounters } from "#application/billing/usage-counters";

/** Plans, subscriptions, usage counters and their limits (docs/decisions/110). */
export const billingModule = defineContextModule({
  name: "billing",
  streamCategories: ["usage", "subscription"],
  services: [Subscriptions, UsageCounters, BillingQueries],
  provides: [
    { token: TOKENS.AllowancePolicy, service: Subscriptions },
    { token: TOKENS.UsageMeter, service: UsageCounters },
  ],
});
