import { Button, Heading, Text } from "@radix-ui/themes";
import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PAYMENT_UNCONFIRMED } from "#app/components/billing/payment-return.server";
import { ORDER_NOT_FOUND_SCREEN, OrderNotFound, PaymentResultCard } from "#app/components/billing/payment-result";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import billingStyles from "#app/styles/billing.css";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { PAYMENT_FAILED } from "#domain/billing/order";
import { isDomainError } from "#domain/shared/domain-error";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "Payment failed | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "My Plan", sectionTo: "/profile/my-plan" } };

const orderIdOf = (request: Request) => new URL(request.url).searchParams.get("order") ?? "";

/** Shows how an order ended when it did not end paid (a cancelled checkout stays open to try again). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { checkout } = await getServices();
  try {
    const order = await checkout.order(user.id, orderIdOf(request));
    if (order.status === "successful") throw redirect(`/payment/success?order=${order.orderId}`);
    const reason = new URL(request.url).searchParams.get("reason");
    const open = order.status === "created";
    return { orderId: order.orderId, cancelled: reason === "cancelled" && open, unconfirmed: reason === "unconfirmed" && open ? PAYMENT_UNCONFIRMED : null };
  } catch (error) {
    if (isDomainError(error) && error.code === "ORDER_NOT_FOUND") return data(ORDER_NOT_FOUND_SCREEN, { status: 404 });
    throw error;
  }
}

/** The checkout reported a failure (Razorpay's payment.failed): the order is recorded failed, 'Payment failed'. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  const form = await request.formData();
  await validateCsrf(form, request);
  const { checkout } = await getServices();
  try {
    await checkout.recordFailure(user.id, orderIdOf(request), getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }));
  } catch (error) {
    if (isDomainError(error) && error.code === "ORDER_NOT_FOUND") throw new Response("Not found", { status: 404 });
    throw error;
  }
  return redirect(`/payment/failed?order=${encodeURIComponent(orderIdOf(request))}`);
}

export default function PaymentFailedPage() {
  const screen = useLoaderData<typeof loader>();
  if ("orderNotFound" in screen) return <OrderNotFound />;
  const { orderId, cancelled, unconfirmed } = screen;
  return (
    <PaymentResultCard>
      <Heading as="h1" size="6" color="red">
        {PAYMENT_FAILED}
      </Heading>
      <Text as="p" align="center">
        {unconfirmed ??
          (cancelled ? "The checkout was closed before the payment was made. Nothing was charged." : "Your payment did not go through. Nothing was charged; you can try again.")}
      </Text>
      <Text as="p" size="2" color="gray">
        Order {orderId}
      </Text>
      <Button asChild>
        <Link to="/profile/my-plan">Back to My Plan</Link>
      </Button>
    </PaymentResultCard>
  );
}
