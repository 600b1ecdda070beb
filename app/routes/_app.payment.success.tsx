import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { confirmPaymentReturn, paymentFailedUrl } from "#app/components/billing/payment-return.server";
import { ORDER_NOT_FOUND_SCREEN, OrderNotFound, PaymentResultCard } from "#app/components/billing/payment-result";
import { formatInr } from "#app/components/billing/usage";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import billingStyles from "#app/styles/billing.css";
import { validateCsrf } from "#app/utils/csrf.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { PLANS } from "#domain/billing/plans";
import { isDomainError } from "#domain/shared/domain-error";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "Payment | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "My Plan", sectionTo: "/profile/my-plan" } };

const orderIdOf = (request: Request) => new URL(request.url).searchParams.get("order") ?? "";

/** Where Stripe Checkout sends the buyer back: the session is asked how it ended (the webhook may come later, or already came). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const order = await confirmPaymentReturn(user.id, orderIdOf(request), {});
    if (order.status === "none") return data(ORDER_NOT_FOUND_SCREEN, { status: 404 });
    if (order.status === "failed") throw redirect(`/payment/failed?order=${order.orderId}`);
    return { orderId: order.orderId, status: order.status, planName: `${PLANS[order.planId].name} (${PLANS[order.planId].billingPeriod})`, amount: order.amount, currency: order.currency };
  } catch (error) {
    if (isDomainError(error) && error.code === "ORDER_NOT_FOUND") return data(ORDER_NOT_FOUND_SCREEN, { status: 404 });
    // A return the provider does not vouch for (a missing or forged signature) or could not confirm: the failure screen, as the POST shows it.
    if (isDomainError(error)) throw redirect(paymentFailedUrl(orderIdOf(request), error));
    throw error;
  }
}

/** Razorpay's checkout handler posts order_id, payment_id and signature here; the server verifies them. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  const form = await request.formData();
  await validateCsrf(form, request);
  const field = (name: string) => String(form.get(name) ?? "");
  const orderId = orderIdOf(request);
  try {
    await confirmPaymentReturn(user.id, orderId, { razorpay_payment_id: field("razorpay_payment_id"), razorpay_order_id: field("razorpay_order_id"), razorpay_signature: field("razorpay_signature") });
  } catch (error) {
    if (isDomainError(error) && error.code === "ORDER_NOT_FOUND") throw new Response("Not found", { status: 404 });
    if (isDomainError(error)) throw redirect(paymentFailedUrl(orderId, error));
    throw error;
  }
  return redirect(`/payment/success?order=${encodeURIComponent(orderId)}`);
}

export default function PaymentSuccessPage() {
  const order = useLoaderData<typeof loader>();
  if ("orderNotFound" in order) return <OrderNotFound />;
  const paid = order.status === "successful";
  return (
    <PaymentResultCard>
      <Heading as="h1" size="6">
        {paid ? "Payment successful" : "Payment received, confirming"}
      </Heading>
      <Text as="p" align="center">
        {paid
          ? `Thank you. ${order.planName} is active: your new limits apply now.`
          : "Your payment provider has not confirmed the payment yet. This page shows the result once it does."}
      </Text>
      <Text as="p" size="2" color="gray">
        Order {order.orderId} · {formatInr(order.amount, order.currency)}
      </Text>
      <Flex gap="3" wrap="wrap" justify="center">
        <Button asChild>
          <Link to="/profile/my-plan">Go to My Plan</Link>
        </Button>
        {!paid ? (
          <Button asChild variant="soft">
            <Link to={`/payment/success?order=${order.orderId}`} reloadDocument>
              Check again
            </Link>
          </Button>
        ) : null}
      </Flex>
    </PaymentResultCard>
  );
}
