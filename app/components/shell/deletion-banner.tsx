import { Button, Callout, Text } from "@radix-ui/themes";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon } from "#app/components/icons";
import { formatRemaining } from "#domain/identity/profile";

/**
 * Spec 001 §4: the persistent banner of an account pending deletion, with the
 * time left and a Retrieve Now button (a plain POST form: works without JS).
 * The first render uses the server's clock so server and client markup agree.
 * The text is a <div>, not Callout.Text's <p>: a form inside a <p> is invalid
 * markup, the browser's parser moves it out, and React's hydration then fails
 * and renders the page again, losing a click made meanwhile (issue 34).
 */
export function DeletionBanner({ purgeAt, serverNow }: { purgeAt: string; serverNow: number }) {
  const deadline = Date.parse(purgeAt);
  const [now, setNow] = useState(serverNow);
  const location = useLocation();
  const navigation = useNavigation();
  useEffect(() => {
    const offset = serverNow - Date.now();
    const tick = () => setNow(Date.now() + offset);
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [serverNow]);
  const retrieving = navigation.formAction === "/account/retrieve";
  return (
    <Callout.Root color="red" variant="surface" className="dc-delete-banner" role="status" data-testid="deletion-banner">
      <Callout.Icon>
        <AlertIcon size={16} />
      </Callout.Icon>
      <Text as="div" size="2" className="rt-CalloutText">
        <strong>Account Deletion is in Progress.</strong> You have{" "}
        <span data-testid="deletion-remaining">{formatRemaining(deadline - now)}</span> to retrieve the account.{" "}
        <Form method="post" action="/account/retrieve" className="dc-inline-form">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value={location.pathname} />
          <Button type="submit" variant="ghost" color="red" size="2" className="dc-link-button" disabled={retrieving}>
            {retrieving ? "Retrieving…" : "Retrieve Now?"}
          </Button>
        </Form>
      </Text>
    </Callout.Root>
  );
}
