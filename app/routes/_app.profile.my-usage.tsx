import { Tabs, Text } from "@radix-ui/themes";
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { periodKeys, usageView } from "#app/components/billing/billing.server";
import { OWN_KEY_NOTE, usageRows } from "#app/components/billing/usage";
import { UsageCharts } from "#app/components/billing/usage-chart";
import { UsageWarnings } from "#app/components/billing/usage-warnings";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import billingStyles from "#app/styles/billing.css";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "My Usage | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "My Usage", sectionTo: "/profile/my-account" } };

/** Spec 001 §2 My Usage: Monthly Usage and Daily Usage, a bar chart per counter, percentage used = used / limit × 100. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // An admin acting as someone never opens profile routes (spec 001 §2).
  if (user.impersonatorId) throw redirect("/");
  const { billing } = await getServices();
  const overview = await billing.overview(user.id);
  return { userId: user.id, planName: overview.subscription.plan.name, usage: usageView(overview.usage), periods: periodKeys(new Date()) };
}

export default function MyUsagePage() {
  const { userId, planName, usage, periods } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "daily" ? "daily" : "monthly";
  const monthly = usageRows(usage, "monthly");
  const daily = usageRows(usage, "daily");
  return (
    <Tabs.Root value={tab} onValueChange={(value) => setParams(value === "daily" ? { tab: "daily" } : {}, { replace: true, preventScrollReset: true })}>
      <Tabs.List aria-label="My Usage">
        <Tabs.Trigger value="monthly">Monthly Usage</Tabs.Trigger>
        <Tabs.Trigger value="daily">Daily Usage</Tabs.Trigger>
      </Tabs.List>
      <UsageWarnings userId={userId} period="month" periodKey={periods.month} rows={monthly} />
      <UsageWarnings userId={userId} period="day" periodKey={periods.day} rows={daily} />
      <Text as="p" size="2" color="gray" my="3">
        Your plan: {planName}. Usage is counted in India Standard Time; months start on the 1st. {OWN_KEY_NOTE}
      </Text>
      <Tabs.Content value="monthly">
        <UsageCharts rows={monthly} period="Monthly" />
      </Tabs.Content>
      <Tabs.Content value="daily">
        <UsageCharts rows={daily} period="Daily" />
      </Tabs.Content>
    </Tabs.Root>
  );
}
