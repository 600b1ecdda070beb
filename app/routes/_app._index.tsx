import { Flex, Heading, Text } from "@radix-ui/themes";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { ComponentType } from "react";
import { ChatIcon, ChevronRightIcon, DocumentsIcon, FileIcon, UploadIcon, WorkspaceIcon } from "#app/components/icons";
import { WelcomeIllustration } from "#app/components/illustrations/welcome";
import { formatDateTime, truncate } from "#app/components/library/format";
import libraryStyles from "#app/components/library/library.css";
import { StatusBadge } from "#app/components/library/status-badge";
import { AppTour } from "#app/components/tour/app-tour";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import type { loader as appLoader } from "#app/routes/_app";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Dashboard | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Home", page: "Dashboard" } };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { libraryQueries, workspaceQueries, conversations } = await getServices();
  const [{ documents, total }, workspaceCount, lastUsed, messageCount] = await Promise.all([
    libraryQueries.listDocuments(user.id, { limit: 3 }),
    workspaceQueries.count(user.id),
    workspaceQueries.lastUsed(user.id),
    conversations.questionCount(user.id),
  ]);
  return {
    documentCount: total,
    workspaceCount,
    messageCount,
    lastUsed: lastUsed ? { id: lastUsed.id, name: lastUsed.name, description: lastUsed.description } : null,
    recent: documents.map((d) => ({ id: d.id, name: d.name, status: d.status, createdAt: d.createdAt })),
  };
}

type ActionCard = { id: string; title: string; description: string; icon: ComponentType<{ size?: number }>; to: string };
const ACTION_CARDS: ActionCard[] = [
  { id: "upload", title: "Upload File", description: "Add PDFs, notes, links, audio or video to your library.", icon: UploadIcon, to: "/upload" },
  { id: "workspace", title: "Create Workspace", description: "Group documents and chat with an AI about them.", icon: WorkspaceIcon, to: "/workspace/create" },
  { id: "documents", title: "My Documents", description: "Browse, search and manage everything you uploaded.", icon: DocumentsIcon, to: "/history/documents" },
];

function StatTile(props: { to?: string; testId: string; icon: ComponentType<{ size?: number }>; value: number; label: string }) {
  const Icon = props.icon;
  const body = (
    <>
      <span className="dc-stat-tile__icon">
        <Icon size={22} />
      </span>
      <span>
        <Text as="span" size="7" weight="bold" className="dc-block">
          {props.value}
        </Text>
        <Text as="span" size="2" color="gray">
          {props.label}
        </Text>
      </span>
      {props.to ? <ChevronRightIcon size={18} className="dc-stat-tile__chevron" /> : null}
    </>
  );
  return props.to ? (
    <Link to={props.to} className="dc-stat-tile" data-testid={props.testId}>
      {body}
    </Link>
  ) : (
    <div className="dc-stat-tile" data-testid={props.testId}>
      {body}
    </div>
  );
}

/** Spec 000 §2 Dashboard: with documents, the stat tile and 'Recently uploaded'; always the action cards. */
export default function Dashboard() {
  const data = useRouteLoaderData<typeof appLoader>("routes/_app");
  const { documentCount, workspaceCount, messageCount, lastUsed, recent } = useLoaderData<typeof loader>();
  const name = data?.user.displayName || "Reader";
  const hasDocuments = documentCount > 0;
  return (
    <div className="dc-dashboard">
      {data ? <AppTour userId={data.user.id} usageTotal={documentCount + workspaceCount + messageCount} /> : null}
      <section className="dc-welcome" aria-labelledby="greeting">
        <div className="dc-welcome__text">
          <Heading as="h1" id="greeting" size={{ initial: "7", sm: "8" }} data-testid="greeting">
            Hi, {name}
          </Heading>
          <Text as="p" size={{ initial: "3", sm: "4" }} color="gray" mt="2">
            {hasDocuments
              ? "Welcome back to your reading room. Pick up a document or add a new one."
              : "Welcome to your reading room. Upload a document, group it into a workspace and ask anything: answers cite the page they came from."}
          </Text>
        </div>
        <WelcomeIllustration className="dc-welcome__art" />
      </section>

      {hasDocuments ? (
        <div className="dc-dash-grid">
          <section aria-labelledby="stats-heading">
            <Heading as="h2" id="stats-heading" size="5" mb="3">
              Your library
            </Heading>
            <div className="dc-stat-tiles">
              <StatTile to="/history/documents" testId="stat-documents" icon={DocumentsIcon} value={documentCount} label="Documents Uploaded" />
              <StatTile to="/history/workspaces" testId="stat-workspaces" icon={WorkspaceIcon} value={workspaceCount} label="Workspace Created" />
              <StatTile testId="stat-messages" icon={ChatIcon} value={messageCount} label="Messages" />
            </div>
            {lastUsed ? (
              <Link to={`/workspace/${lastUsed.id}`} className="dc-pickup" data-testid="pick-up">
                <Text as="span" size="1" color="gray" weight="medium" className="dc-block">
                  Pick up where you left off
                </Text>
                <Text as="span" size="4" weight="bold" className="dc-block">
                  {lastUsed.name}
                </Text>
                <Text as="span" size="2" color="indigo" className="dc-block">
                  Let’s Continue to chat…
                </Text>
                {lastUsed.description ? (
                  <Text as="span" size="2" color="gray" className="dc-block">
                    {lastUsed.description}
                  </Text>
                ) : null}
              </Link>
            ) : null}
          </section>
          <section aria-labelledby="recent-heading" className="dc-recent">
            <Flex justify="between" align="baseline" mb="3">
              <Heading as="h2" id="recent-heading" size="5">
                Recently uploaded
              </Heading>
              <Link to="/history/documents" className="dc-text-link">
                View all
              </Link>
            </Flex>
            <ul className="dc-recent__list">
              {recent.map((d) => (
                <li key={d.id}>
                  <Link to={`/document/${d.id}`} className="dc-recent__item" data-testid="recent-document" title={d.name}>
                    <span className="dc-recent__icon">
                      <FileIcon size={18} />
                    </span>
                    <span className="dc-recent__text">
                      <Text as="span" size="2" weight="medium" className="dc-block">
                        {truncate(d.name, 20)}
                      </Text>
                      <Text as="span" size="1" color="gray">
                        {formatDateTime(d.createdAt)}
                      </Text>
                    </span>
                    <StatusBadge status={d.status} />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </div>
      ) : null}

      <section aria-labelledby="get-started" className={hasDocuments ? "dc-hide-tablet" : undefined}>
        <Flex align="baseline" justify="between" gap="3" wrap="wrap" mb="3">
          <Heading as="h2" id="get-started" size="5">
            {hasDocuments ? "Quick actions" : "Get started"}
          </Heading>
        </Flex>
        <ul className="dc-action-cards">
          {ACTION_CARDS.map((card) => {
            const Icon = card.icon;
            const body = (
              <>
                <span className="dc-action-card__icon">
                  <Icon size={24} />
                </span>
                <Heading as="h3" size="4">
                  {card.title}
                </Heading>
                <Text as="p" size="2" color="gray">
                  {card.description}
                </Text>
              </>
            );
            return (
              <li key={card.id} className="dc-action-card dc-action-card--link" data-testid={`action-card-${card.id}`}>
                <Link to={card.to} className="dc-action-card__link">
                  {body}
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
