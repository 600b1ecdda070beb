import { Flex, Heading, Text } from "@radix-ui/themes";
import { AuthArt } from "#app/components/illustrations/auth-art";
import { LogoMark } from "#app/components/logo";

/** The left panel of the auth pages (hidden at 1024 px and below by CSS). */
export function TestimonialPanel({ productName }: { productName: string }) {
  return (
    <aside className="dc-auth__panel" aria-label="What readers say">
      <Flex align="center" gap="3">
        <LogoMark size={36} inverse />
        <Text size="5" weight="bold" className="dc-auth__panel-brand">
          {productName}
        </Text>
      </Flex>
      <div className="dc-auth__panel-middle">
        <AuthArt className="dc-auth__art" />
        <Heading as="h2" size="7" className="dc-auth__panel-heading">
          Ask your documents anything.
        </Heading>
        <Text as="p" size="3" className="dc-auth__panel-text">
          Upload papers, notes, recordings and links, group them into workspaces and get answers that cite the page they
          came from.
        </Text>
      </div>
      <figure className="dc-testimonial">
        <blockquote className="dc-testimonial__quote">
          “I dropped in a semester of lecture notes and two textbooks. Revising with {productName} felt like studying
          with a tutor who had read everything.”
        </blockquote>
        <figcaption>
          <Flex align="center" gap="3" mt="4">
            <span className="dc-avatar dc-avatar--amber" aria-hidden="true">
              AM
            </span>
            <div>
              <Text as="div" size="2" weight="bold">
                Amara Mensah
              </Text>
              <Text as="div" size="1" className="dc-testimonial__role">
                Medical student
              </Text>
            </div>
          </Flex>
        </figcaption>
      </figure>
    </aside>
  );
}
