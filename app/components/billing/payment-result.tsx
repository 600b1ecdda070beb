import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The card the payment return screens (/payment/success, /payment/failed) show their result in. */
export function PaymentResultCard({ children }: { children: ReactNode }) {
  return (
    <Flex justify="center" className="dc-payment-result">
      <Card size="3" className="dc-payment-result__card" data-testid="payment-result">
        <Flex direction="column" gap="3" align="center">
          {children}
        </Flex>
      </Card>
    </Flex>
  );
}

/** What the loaders answer, with a 404, for a return that names none of the buyer's orders. */
export const ORDER_NOT_FOUND_SCREEN = { orderNotFound: true } as const;

/**
 * A return that names none of the buyer's orders: an old or mistyped link, or
 * one opened while signed in to another account. Said plainly, with where the
 * orders are, rather than the app's "Page Not Found" to someone who just paid.
 */
export function OrderNotFound() {
  return (
    <PaymentResultCard>
      <Heading as="h1" size="6">
        We could not find this order
      </Heading>
      <Text as="p" align="center">
        This link does not name an order of this account. If you have just paid, the payment appears in your Order History within minutes.
      </Text>
      <Button asChild>
        <Link to="/profile/my-plan?tab=orders">Go to Order History</Link>
      </Button>
    </PaymentResultCard>
  );
}
