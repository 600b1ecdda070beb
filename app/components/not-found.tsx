import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { NotFoundIllustration } from "#app/components/illustrations/not-found";
import { HomeIcon } from "#app/components/icons";

/** Spec 000 §2, route `*`: an image and the text '404! Page Not Found'. */
export function NotFoundPage() {
  return (
    <main className="dc-status-page" id="main">
      <Flex direction="column" align="center" gap="4" className="dc-status-page__inner">
        <NotFoundIllustration className="dc-status-page__art" />
        <Heading as="h1" size="8" align="center">
          404! Page Not Found
        </Heading>
        <Text as="p" color="gray" size="3" align="center">
          The page you are looking for has moved, was removed, or never existed.
        </Text>
        <Button asChild size="3">
          <Link to="/">
            <HomeIcon /> Back to home
          </Link>
        </Button>
      </Flex>
    </main>
  );
}
