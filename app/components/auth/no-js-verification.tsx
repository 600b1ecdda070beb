import { Button, Callout, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { Form } from "@remix-run/react";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon } from "#app/components/icons";

/**
 * The code step as a plain page section, for browsers without JavaScript
 * (the dialog needs it). Rendered only until hydration.
 */
export function NoJsVerification({
  title,
  username,
  error,
  redirectTo,
}: {
  title: string;
  username: string;
  error?: string | null;
  redirectTo?: string;
}) {
  return (
    <Card size="3" mb="5" className="dc-nojs-verify">
      <Heading as="h2" size="5" mb="1">
        {title}
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        Enter the 6-digit code we emailed for {username}.
      </Text>
      {error ? (
        <Callout.Root color="red" size="1" mb="3" role="alert">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="username" value={username} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Flex direction="column" gap="2">
          <Text as="label" htmlFor="nojs-code" size="2" weight="medium">
            Verification code
          </Text>
          <TextField.Root id="nojs-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} size="3" />
          <Button type="submit" size="3">
            Confirm
          </Button>
        </Flex>
      </Form>
      <Form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="username" value={username} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Button type="submit" variant="ghost" size="2" mt="3">
          Send a new code
        </Button>
      </Form>
    </Card>
  );
}
