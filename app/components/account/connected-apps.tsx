import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import { GoogleMark } from "#app/components/icons";

export type ConnectedAppView = { issuer: string; providerName: string; email: string; linkedAt: string };

/** Connected Apps (spec 001 §2): the providers linked to the account and the email each vouched for. */
export function ConnectedApps({ apps }: { apps: ConnectedAppView[] }) {
  if (apps.length === 0) {
    return (
      <Text as="p" size="2" color="gray" data-testid="connected-apps-empty">
        No connected apps. Sign in with Google once to connect it to this account.
      </Text>
    );
  }
  return (
    <ul className="dc-connected-apps" aria-label="Connected apps" data-testid="connected-apps">
      {apps.map((app) => (
        <li key={app.issuer}>
          <Card size="2">
            <Flex align="center" gap="3">
              <GoogleMark />
              <Flex direction="column" gap="1" flexGrow="1">
                <Text weight="medium">{app.providerName}</Text>
                <Text size="2" color="gray">
                  {app.email}
                </Text>
              </Flex>
              <Badge color="green">Connected</Badge>
            </Flex>
          </Card>
        </li>
      ))}
    </ul>
  );
}
