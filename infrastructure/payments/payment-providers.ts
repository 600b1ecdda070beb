import type { PaymentProvider } from "#application/billing/payment-provider";
import type { PaymentsConfig } from "#infrastructure/config/config";
import { RazorpayPaymentProvider } from "./razorpay-payment-provider";
import { StripePaymentProvider } from "./stripe-payment-provider";

/** The configured payment provider's adapter. */
export function createPaymentProvider(config: PaymentsConfig): PaymentProvider {
  return config.provider === "stripe"
    ? new StripePaymentProvider({ secretKey: config.secretKey, webhookSecret: config.webhookSecret, apiUrl: config.apiUrl })
    : new RazorpayPaymentProvider(config);
}
