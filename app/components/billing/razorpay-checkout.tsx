import { Button, Callout } from "@radix-ui/themes";
import { useEffect, useRef, useState } from "react";
import { useCsrfToken } from "#app/components/use-csrf";
import { useToast } from "#app/components/toast";

/** Spec 001 §8: the checkout script failed to load. */
export const CHECKOUT_SCRIPT_FAILED = "Cannot process the request, Please check your internet connectin";

export interface ScriptCheckout {
  orderId: string;
  providerOrderId: string;
  keyId: string;
  scriptUrl: string;
  amount: number;
  currency: string;
  planName: string;
}

type RazorpayResponse = { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string };
type RazorpayInstance = { open(): void; on(event: "payment.failed", handler: () => void): void };
declare global {
  interface Window {
    Razorpay?: new (options: Record<string, unknown>) => RazorpayInstance;
  }
}

/** Posts the result to the payment screens, which verify it on the server. */
function submitResult(action: string, fields: Record<string, string>) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

/**
 * Razorpay's hosted checkout (spec 001 §4): opens when the order id appears;
 * success posts order_id, payment_id and signature for verification; a failure
 * records 'Payment failed'; dismissing leaves the order to be chosen again.
 */
export function RazorpayCheckout({ checkout }: { checkout: ScriptCheckout }) {
  const csrfToken = useCsrfToken();
  const toast = useToast();
  const [failed, setFailed] = useState(false);
  const opened = useRef(false);

  const open = () => {
    const Razorpay = window.Razorpay;
    if (!Razorpay) return;
    const instance = new Razorpay({
      key: checkout.keyId,
      amount: checkout.amount,
      currency: checkout.currency,
      name: "DocuChat",
      description: checkout.planName,
      order_id: checkout.providerOrderId,
      handler: (response: RazorpayResponse) =>
        submitResult(`/payment/success?order=${encodeURIComponent(checkout.orderId)}`, { ...response, csrf: csrfToken }),
      modal: { ondismiss: () => undefined },
    });
    instance.on("payment.failed", () => submitResult(`/payment/failed?order=${encodeURIComponent(checkout.orderId)}`, { csrf: csrfToken }));
    instance.open();
  };

  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    if (window.Razorpay) return open();
    const script = document.createElement("script");
    script.src = checkout.scriptUrl;
    script.async = true;
    script.onload = open;
    script.onerror = () => {
      setFailed(true);
      toast.push({ type: "error", message: CHECKOUT_SCRIPT_FAILED });
    };
    document.body.appendChild(script);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checkout.providerOrderId]);

  return failed ? (
    <Callout.Root color="red" role="alert" mb="4">
      <Callout.Text>{CHECKOUT_SCRIPT_FAILED}</Callout.Text>
    </Callout.Root>
  ) : (
    <Button mb="4" variant="soft" onClick={open} data-testid="open-checkout">
      Open the checkout again
    </Button>
  );
}
