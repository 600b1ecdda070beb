import type { PaymentProvider } from "#application/billing/payment-provider";
import type { Clock } from "#application/ports/clock";
import type { PaymentsConfig } from "#infrastructure/config/config";
import { RazorpayPaymentProvider } from "./razorpay-payment-provider";
import { StripePaymentProvider } from "./stripe-payment-provider";

/** The configured payment provider's adapter. */
export function createPaymentProvider(config: PaymentsConfig, clock: Clock): Promise<PaymentProvider> {
  return config.provider === "stripe"
    ? StripePaymentProvider.create({ secretKey: config.secretKey, webhookSecret: config.webhookSecret, apiUrl: config.apiUrl, clock })
    : RazorpayPaymentProvider.create(config);
}
