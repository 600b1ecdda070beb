import type { ActionFunctionArgs } from "@remix-run/node";
import { readBodyBytes } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { isDomainError } from "#domain/shared/domain-error";

/** Webhook bodies are small; anything larger is not the provider's. */
export const bodyLimit = 256 * 1024;

/**
 * POST /api/payments/webhook — the configured provider's webhook (Stripe or
 * Razorpay). The raw body is read first and its signature verified with the
 * provider's SDK; the provider's event id names the event recorded, so a
 * replayed webhook appends nothing. Reports the billing context will not act on
 * (another event type, an unknown order, an amount that differs) are answered
 * 200 so the provider stops retrying, and logged.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  const { checkout, logger } = await getServices();
  const provider = checkout.provider;
  if (!provider) return Response.json({ code: "NOT_FOUND", message: "Not found" }, { status: 404 });
  const rawBody = (await readBodyBytes(request, bodyLimit)).toString("utf8");
  let verified;
  try {
    verified = provider.verifyWebhook(rawBody, request.headers);
  } catch (error) {
    if (isDomainError(error)) return Response.json({ code: error.code, message: error.message }, { status: 400 });
    throw error;
  }
  try {
    const { recorded } = await checkout.recordWebhook(verified.eventId, verified.report);
    return Response.json({ received: true, recorded });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    logger.warn({ provider: provider.name, eventId: verified.eventId, code: error.code }, "payment webhook refused");
    return Response.json({ received: true, recorded: false, refused: error.code });
  }
}
