import { Flex, Separator, Text, Tooltip } from "@radix-ui/themes";
import { GoogleMark } from "#app/components/icons";

/** Google sign-in is not configured in this build: shown, explained, inert. */
export function GoogleSignIn() {
  return (
    <div className="dc-social">
      <Flex align="center" gap="3" my="4">
        <Separator size="4" className="dc-social__rule" />
        <Text size="1" color="gray" className="dc-social__or">
          OR
        </Text>
        <Separator size="4" className="dc-social__rule" />
      </Flex>
      <Tooltip content="Google sign-in is not configured">
        <button type="button" aria-disabled="true" className="dc-google-button" onClick={(e) => e.preventDefault()}>
          <GoogleMark />
          <span>Continue with Google</span>
        </button>
      </Tooltip>
    </div>
  );
}
