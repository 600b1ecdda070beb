import { Flex, Link as ThemeLink, Text } from "@radix-ui/themes";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { TestimonialPanel } from "#app/components/auth/testimonial-panel";
import type { SocialSignInState } from "#app/components/auth/google-button";
import { Logo } from "#app/components/logo";
import { isLoopbackClient } from "#app/utils/dev-only.server";
import { CLIENT_ADDRESS_HEADER } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";

import { EXTERNAL_LINKS, MARKETING_SITE } from "#app/components/external-links";

export async function loader({ request }: LoaderFunctionArgs) {
  const services = await getServices();
  const socialSignIn: SocialSignInState = services.externalIdentity
    ? { enabled: true, providerName: services.externalIdentity.providerName }
    : { enabled: false, providerName: "Google" };
  return {
    productName: services.config.productName,
    devMailbox: services.devMailbox !== null && isLoopbackClient(request.headers.get(CLIENT_ADDRESS_HEADER)),
    socialSignIn,
  };
}

/** Layout of /login and /signup: testimonial panel on the left, the form on the right. */
export default function AuthLayout() {
  const { productName, devMailbox } = useLoaderData<typeof loader>();
  return (
    <div className="dc-auth">
      <TestimonialPanel productName={productName} />
      <div className="dc-auth__main">
        <header className="dc-auth__header">
          <a href={MARKETING_SITE} className="dc-auth__brand" aria-label={`${productName} website`}>
            <Logo productName={productName} />
          </a>
        </header>
        <main className="dc-auth__content" id="main">
          <div className="dc-auth__card">
            <Outlet />
          </div>
        </main>
        <footer className="dc-auth__footer">
          <Flex gap="4" wrap="wrap" justify="center" align="center">
            <Text size="1" color="gray">
              © {new Date().getFullYear()} {productName}
            </Text>
            <ThemeLink size="1" color="gray" href={EXTERNAL_LINKS.terms} target="_blank" rel="noopener noreferrer">
              Terms of Service
            </ThemeLink>
            <ThemeLink size="1" color="gray" href={EXTERNAL_LINKS.privacy} target="_blank" rel="noopener noreferrer">
              Privacy Policy
            </ThemeLink>
            {devMailbox ? (
              <ThemeLink size="1" asChild>
                <Link to="/dev/mailbox" data-testid="dev-mailbox-link">
                  Dev mailbox
                </Link>
              </ThemeLink>
            ) : null}
          </Flex>
        </footer>
      </div>
    </div>
  );
}
