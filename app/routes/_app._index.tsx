import { Badge, Flex, Heading, Text } from "@radix-ui/themes";
import type { MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import type { ComponentType } from "react";
import { DocumentsIcon, UploadIcon, WorkspaceIcon } from "#app/components/icons";
import { WelcomeIllustration } from "#app/components/illustrations/welcome";
import { LATER_RELEASE } from "#app/components/later-release";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import type { loader as appLoader } from "#app/routes/_app";

export const meta: MetaFunction = () => [{ title: "Dashboard | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Home", page: "Dashboard" } };

type ActionCard = { id: string; title: string; description: string; icon: ComponentType<{ size?: number }> };
const ACTION_CARDS: ActionCard[] = [
  { id: "upload", title: "Upload File", description: "Add PDFs, notes, links, audio or video to your library.", icon: UploadIcon },
  { id: "workspace", title: "Create Workspace", description: "Group documents and chat with an AI about them.", icon: WorkspaceIcon },
  { id: "documents", title: "My Documents", description: "Browse, search and manage everything you uploaded.", icon: DocumentsIcon },
];

/** Spec 000 §2 Dashboard, without documents: the welcome screen with the three action cards. */
export default function Dashboard() {
  const data = useRouteLoaderData<typeof appLoader>("routes/_app");
  const name = data?.user.displayName || "Reader";
  return (
    <div className="dc-dashboard">
      <section className="dc-welcome" aria-labelledby="greeting">
        <div className="dc-welcome__text">
          <Heading as="h1" id="greeting" size={{ initial: "7", sm: "8" }} data-testid="greeting">
            Hi, {name}
          </Heading>
          <Text as="p" size={{ initial: "3", sm: "4" }} color="gray" mt="2">
            Welcome to your reading room. Upload a document, group it into a workspace and ask anything: answers cite the
            page they came from.
          </Text>
        </div>
        <WelcomeIllustration className="dc-welcome__art" />
      </section>

      <section aria-labelledby="get-started">
        <Flex align="baseline" justify="between" gap="3" wrap="wrap" mb="3">
          <Heading as="h2" id="get-started" size="5">
            Get started
          </Heading>
          <Text size="2" color="gray">
            These features are coming in a later release.
          </Text>
        </Flex>
        <ul className="dc-action-cards">
          {ACTION_CARDS.map((card) => {
            const Icon = card.icon;
            return (
              <li key={card.id} className="dc-action-card" data-disabled="" data-testid={`action-card-${card.id}`}>
                <span className="dc-action-card__icon">
                  <Icon size={24} />
                </span>
                <Heading as="h3" size="4">
                  {card.title}
                </Heading>
                <Text as="p" size="2" color="gray">
                  {card.description}
                </Text>
                <Badge color="gray" variant="soft" size="1" className="dc-action-card__badge">
                  {LATER_RELEASE}
                </Badge>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
