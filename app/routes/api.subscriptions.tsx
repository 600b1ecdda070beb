import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { USAGE_COUNTERS, type UsageCounter } from "#domain/billing/plans";

/** The spec's names for the counters (spec 001 §3 Subscription). */
const SPEC_NAMES: Record<UsageCounter, string> = { pages: "document_page", uploads: "document", messages: "message", workspaces: "workspace" };

/**
 * GET /api/subscriptions (spec 001 §7): the signed-in user's subscription —
 * subscription_id, subscription_type, status, usage and threshold (each with
 * document_page, document, message, workspace, each daily_limit and monthly_limit).
 * In `usage` the figures are what was used; in `threshold` the limits (null: unlimited).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { billing } = await getServices();
    const { subscription, usage } = await billing.overview(user.id);
    const per = (pick: (counter: UsageCounter) => { daily_limit: number | null; monthly_limit: number | null }) =>
      Object.fromEntries(USAGE_COUNTERS.map((counter) => [SPEC_NAMES[counter], pick(counter)]));
    return Response.json(
      {
        subscription_id: subscription.subscriptionId,
        subscription_type: subscription.plan.id,
        status: subscription.status,
        period_ends_at: subscription.period?.endsAt ?? null,
        usage: per((c) => ({ daily_limit: usage[c].daily.used, monthly_limit: usage[c].monthly.used })),
        threshold: per((c) => ({ daily_limit: usage[c].daily.limit, monthly_limit: usage[c].monthly.limit })),
      },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return apiErrorResponse(error);
  }
}
