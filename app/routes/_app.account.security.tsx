import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChangePasswordForm } from "#app/components/account/change-password-form";
import { ConnectedApps } from "#app/components/account/connected-apps";
import { LogOutEverywhere } from "#app/components/account/log-out-everywhere";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Account security | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Account", page: "Security" } };

/** Until the profile page embeds them: Connected Apps, Change Password and Log out of all Devices in one place. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { identityQueries } = await getServices();
  return { connectedApps: await identityQueries.connectedApps(user.id), readOnly: user.role === "impersonate" };
}

export default function AccountSecurity() {
  const { connectedApps, readOnly } = useLoaderData<typeof loader>();
  return (
    <Flex direction="column" gap="5" className="dc-account-security" maxWidth="640px">
      <Heading as="h1" size="7">
        Account security
      </Heading>
      <Card size="3" asChild>
        <section aria-labelledby="connected-apps-heading">
          <Heading as="h2" size="4" mb="3" id="connected-apps-heading">
            Connected Apps
          </Heading>
          <ConnectedApps apps={connectedApps} />
        </section>
      </Card>
      <Card size="3" asChild>
        <section aria-labelledby="change-password-heading">
          <Heading as="h2" size="4" mb="3" id="change-password-heading">
            Change Password
          </Heading>
          <ChangePasswordForm />
        </section>
      </Card>
      <Card size="3" asChild>
        <section aria-labelledby="sessions-heading">
          <Heading as="h2" size="4" mb="2" id="sessions-heading">
            Log out of all Devices
          </Heading>
          <Text as="p" size="2" color="gray" mb="3">
            Ends every session of this account on every browser and device, including this one.
          </Text>
          <LogOutEverywhere readOnly={readOnly} />
        </section>
      </Card>
    </Flex>
  );
}
