import { Badge, Button, Callout, Card, Flex, Heading, Tabs, Text } from "@radix-ui/themes";
import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { CsrfInput } from "#app/components/csrf-input";
import { OrderHistory } from "#app/components/billing/order-history";
import { RazorpayCheckout } from "#app/components/billing/razorpay-checkout";
import { formatBillingDate, formatLimit, OWN_KEY_NOTE, usageRows } from "#app/components/billing/usage";
import { UsageWarnings } from "#app/components/billing/usage-warnings";
import { periodKeys, usageView } from "#app/components/billing/billing.server";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import billingStyles from "#app/styles/billing.css";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { FERN_RATES_INR, type Plan } from "#domain/billing/plans";
import { isDomainError } from "#domain/shared/domain-error";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "My Plan | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "My Plan", sectionTo: "/profile/my-account" } };

/** Spec 001 §2 My Plan: Plan Details (plans, current marked, Pine recommended, usage against limits) and Order History. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // An admin acting as someone never opens profile routes (spec 001 §2).
  if (user.impersonatorId) throw redirect("/");
  const page = Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1);
  const { billing, checkout } = await getServices();
  const [overview, orders] = await Promise.all([billing.overview(user.id), billing.orders(user.id, page)]);
  return {
    userId: user.id,
    currentPlanId: overview.subscription.plan.id,
    periodEndsAt: overview.subscription.period?.endsAt ?? null,
    plans: overview.plans,
    usage: usageView(overview.usage),
    orders,
    page,
    paymentsConfigured: checkout.configured,
    // One key per page shown: a double click on Upgrade sends it twice and gets one order.
    requestKey: randomUUID(),
    periodKey: periodKeys(new Date()).month,
  };
}

type ActionData =
  | { ok: false; message: string }
  | { ok: true; checkout: { kind: "script"; orderId: string; providerOrderId: string; keyId: string; scriptUrl: string; amount: number; currency: string; planName: string } };

export async function action({ request }: ActionFunctionArgs): Promise<ActionData | Response> {
  const user = await requireWritableUser(request);
  if (user.impersonatorId) throw redirect("/");
  const form = await request.formData();
  await validateCsrf(form, request);
  const { checkout } = await getServices();
  try {
    const started = await checkout.start(
      user.id,
      { planId: String(form.get("planId") ?? ""), requestKey: String(form.get("requestKey") ?? ""), email: user.email || null },
      { publicUrl: new URL(request.url).origin },
      getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }),
    );
    if (started.checkout.kind === "redirect") return redirect(started.checkout.url);
    const { keyId, scriptUrl, providerOrderId } = started.checkout;
    return { ok: true, checkout: { kind: "script", orderId: started.orderId, providerOrderId, keyId, scriptUrl, amount: started.amount, currency: started.currency, planName: String(form.get("planName") ?? "") } };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, message: error.message };
    throw error;
  }
}

export default function MyPlanPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "orders" ? "orders" : "details";
  const monthly = usageRows(data.usage, "monthly");
  return (
    <Tabs.Root value={tab} onValueChange={(value) => setParams(value === "orders" ? { tab: "orders" } : {}, { replace: true, preventScrollReset: true })}>
      <Tabs.List aria-label="My Plan">
        <Tabs.Trigger value="details">Plan Details</Tabs.Trigger>
        <Tabs.Trigger value="orders">Order History</Tabs.Trigger>
      </Tabs.List>
      <UsageWarnings userId={data.userId} period="month" periodKey={data.periodKey} rows={monthly} />
      <Tabs.Content value="details" className="dc-billing__panel">
        {actionData && !actionData.ok ? (
          <Callout.Root color="red" role="alert" mb="4" data-testid="upgrade-error">
            <Callout.Text>{actionData.message}</Callout.Text>
          </Callout.Root>
        ) : null}
        {actionData?.ok ? <RazorpayCheckout checkout={actionData.checkout} /> : null}
        {!data.paymentsConfigured ? (
          <Callout.Root color="gray" mb="4" data-testid="payments-not-configured">
            <Callout.Text id={PAYMENTS_NOTE_ID}>Payments are not configured on this installation. Plans and usage are shown; upgrading is not possible here.</Callout.Text>
          </Callout.Root>
        ) : null}
        <div className="dc-plan-grid">
          {data.plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              current={plan.id === data.currentPlanId}
              requestKey={data.requestKey}
              periodEndsAt={plan.id === data.currentPlanId ? data.periodEndsAt : null}
              paymentsConfigured={data.paymentsConfigured}
            />
          ))}
        </div>
        <Heading as="h2" size="4" mt="5" mb="2">
          This month's usage
        </Heading>
        <Card>
          <dl className="dc-plan-usage" data-testid="plan-usage">
            {monthly.map((row) => (
              <div key={row.counter} className="dc-plan-usage__row">
                <dt>{row.label}</dt>
                <dd>
                  <span data-testid={`plan-usage-${row.counter}`}>
                    {row.used.toLocaleString("en-IN")} / {formatLimit(row.limit)}
                  </span>
                  {row.percent !== null ? (
                    <progress className="dc-plan-usage__bar" max={100} value={Math.min(100, row.percent)} aria-label={`${row.label}: ${row.percent}% used`} />
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
          <Text as="p" size="1" color="gray" mt="2">
            {OWN_KEY_NOTE} <Link to="/profile/my-usage">See My Usage</Link>
          </Text>
        </Card>
      </Tabs.Content>
      <Tabs.Content value="orders" className="dc-billing__panel">
        <OrderHistory orders={data.orders.orders} total={data.orders.total} page={data.page} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

const PAYMENTS_NOTE_ID = "payments-not-configured-note";

/** A yearly plan's figures are spent as a twelfth a month (docs/decisions/110); the card says so. */
function withMonthlyShare(total: number, monthly: number | null, billingPeriod: Plan["billingPeriod"], what: string) {
  const figure = `${total.toLocaleString("en-IN")} ${what}`;
  return billingPeriod === "yearly" && monthly !== null ? `${figure} a year (up to ${monthly.toLocaleString("en-IN")} a month)` : figure;
}

function PlanCard({
  plan,
  current,
  requestKey,
  periodEndsAt,
  paymentsConfigured,
}: {
  plan: Plan;
  current: boolean;
  requestKey: string;
  periodEndsAt: string | null;
  paymentsConfigured: boolean;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("planId") === plan.id;
  const per = plan.billingPeriod === "yearly" ? "year" : "month";
  return (
    <Card className={`dc-plan-card${plan.recommended ? " dc-plan-card--recommended" : ""}`} data-testid={`plan-${plan.id}`}>
      <Flex direction="column" gap="2" height="100%">
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Heading as="h3" size="4">
            {plan.name}
            {plan.billingPeriod ? <Text size="2" color="gray" weight="regular">{` ${plan.billingPeriod}`}</Text> : null}
          </Heading>
          {current ? <Badge color="green">Current plan</Badge> : plan.recommended ? <Badge color="amber">Recommended</Badge> : plan.comingSoon ? <Badge color="gray">Coming soon</Badge> : null}
        </Flex>
        {plan.comingSoon ? (
          <>
            <Text size="5" weight="bold">
              Pay as you go
            </Text>
            <ul className="dc-plan-card__list">
              <li>INR {FERN_RATES_INR.perPage} per page</li>
              <li>INR {FERN_RATES_INR.perWorkspace} per workspace</li>
              <li>INR {FERN_RATES_INR.perMessage} per message</li>
            </ul>
          </>
        ) : (
          <>
            <Text size="5" weight="bold">
              {plan.priceInr === 0 ? "Free" : `INR ${plan.priceInr.toLocaleString("en-IN")}`}
              {plan.priceInr > 0 ? <Text size="2" color="gray" weight="regular">{` / ${per}`}</Text> : null}
            </Text>
            <ul className="dc-plan-card__list">
              <li>{withMonthlyShare(plan.headline.pages, plan.limits.pages.monthly, plan.billingPeriod, "pages")}</li>
              <li>{withMonthlyShare(plan.headline.messages, plan.limits.messages.monthly, plan.billingPeriod, "chat messages")}</li>
              <li>{plan.headline.workspaces === null ? "Unlimited workspaces" : `${plan.headline.workspaces} workspaces`}</li>
            </ul>
          </>
        )}
        <div className="dc-plan-card__action">
          {current ? (
            <Text size="2" color="gray">
              {periodEndsAt ? `Paid until ${formatBillingDate(periodEndsAt, false)}` : "Your plan"}
            </Text>
          ) : plan.comingSoon ? (
            <Button disabled variant="soft" style={{ width: "100%" }}>
              Coming soon
            </Button>
          ) : plan.priceInr > 0 && !paymentsConfigured ? (
            // Without a payment provider Upgrade cannot work: it stays in place, disabled, and points at the note that says why.
            <Button disabled variant="soft" style={{ width: "100%" }} aria-describedby={PAYMENTS_NOTE_ID} data-testid="upgrade-unavailable">
              Upgrade
            </Button>
          ) : plan.priceInr > 0 ? (
            <Form method="post" replace>
              <CsrfInput />
              <input type="hidden" name="planId" value={plan.id} />
              <input type="hidden" name="planName" value={`${plan.name} (${plan.billingPeriod})`} />
              <input type="hidden" name="requestKey" value={`${requestKey}-${plan.id}`} />
              <Button type="submit" style={{ width: "100%" }} disabled={submitting} variant={plan.recommended ? "solid" : "soft"}>
                {submitting ? "Creating your order…" : "Upgrade"}
              </Button>
            </Form>
          ) : null}
        </div>
      </Flex>
    </Card>
  );
}
