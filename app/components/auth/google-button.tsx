import { Flex, Separator, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { CsrfInput } from "#app/components/csrf-input";
import { GoogleMark } from "#app/components/icons";

export type SocialSignInState = { enabled: boolean; providerName: string };

/**
 * 'Continue with Google' (or the configured OpenID provider). A plain form
 * POST, not a fetch: the answer is a redirect to another origin. When no
 * provider is configured the button stays, explained and inert.
 */
export function GoogleSignIn() {
  const layout = useRouteLoaderData<{ socialSignIn?: SocialSignInState }>("routes/_auth");
  const social = layout?.socialSignIn ?? { enabled: false, providerName: "Google" };
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  return (
    <div className="dc-social">
      <Flex align="center" gap="3" my="4">
        <Separator size="4" className="dc-social__rule" />
        <Text size="1" color="gray" className="dc-social__or">
          OR
        </Text>
        <Separator size="4" className="dc-social__rule" />
      </Flex>
      {social.enabled ? (
        <form method="post" action="/auth/oidc/start">
          <CsrfInput />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <button type="submit" className="dc-google-button" data-testid="social-sign-in">
            <GoogleMark />
            <span>Continue with {social.providerName}</span>
          </button>
        </form>
      ) : (
        <Tooltip content="Google sign-in is not configured">
          <button type="button" aria-disabled="true" className="dc-google-button" onClick={(e) => e.preventDefault()}>
            <GoogleMark />
            <span>Continue with Google</span>
          </button>
        </Tooltip>
      )}
    </div>
  );
}
