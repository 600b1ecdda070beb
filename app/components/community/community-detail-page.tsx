import { Badge, Button, Callout, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import type { CommunityAdministration, CommunityDetail } from "#application/community/community-queries";
import { roleAtLeast } from "#domain/community/community";
import { ArrowLeftIcon, DocIcon, InfoIcon } from "#app/components/icons";
import { formatDate, truncate } from "#app/components/library/format";
import { useSearchQuery } from "#app/components/selectable-table";
import { AddFilesDialog, AddToWorkspaceDialog, JoinCommunityButton, ReportDialog } from "./community-dialogs";
import { SettingsDialog } from "./settings-dialog";
import { useCommunityAction } from "./use-community-action";

/** Spec 001 §2 and §9. */
export const DEFAULT_COMMUNITY_DESCRIPTION = "Explore the range of documents other people have contributed, and use them for free!";
const NAME_CUT = 15;

export function CommunityDetailPage(props: {
  q: string;
  userId: string;
  community: CommunityDetail;
  hasWorkspaces: boolean;
  administration: CommunityAdministration | null;
  listPath: string;
  listTitle: string;
}) {
  const { community, administration } = props;
  const member = roleAtLeast(community.role, "MEMBER");
  const moderator = roleAtLeast(community.role, "MODERATOR");
  const [search, setSearch] = useSearchQuery(props.q);
  const [open, setOpen] = useState<string | null>(null);
  const opened = member ? community.resources.find((r) => r.documentId === open) ?? null : null;
  const location = useLocation();
  const back = (location.state as { from?: string } | null)?.from ?? props.listPath;
  const remove = useCommunityAction(() => setOpen(null));
  const leave = useCommunityAction();
  // Held by the page: once joined, the Join button is gone but its answer still shows.
  const join = useCommunityAction();

  return (
    <div className="dc-lib-page dc-community-page">
      <Link to={back} className="dc-back-link">
        <Flex align="center" gap="1">
          <ArrowLeftIcon size={14} /> {props.listTitle}
        </Flex>
      </Link>
      <header className="dc-lib-page__header">
        <div className="dc-community-about">
          <Heading as="h1" size={{ initial: "6", sm: "7" }} className="dc-community-title" data-testid="community-name">
            {community.communityName}
          </Heading>
          <Text as="p" size="3" color="gray" mt="1" className="dc-community-description" data-testid="community-description">
            {community.description.trim() || DEFAULT_COMMUNITY_DESCRIPTION}
          </Text>
          <Flex gap="2" mt="2" wrap="wrap">
            <Badge highContrast color={community.visibility === "PRIVATE" ? "gray" : "green"}>{community.visibility === "PRIVATE" ? "Private" : "Public"}</Badge>
            <Badge highContrast color="blue" data-testid="community-role">
              {community.role.charAt(0) + community.role.slice(1).toLowerCase()}
            </Badge>
            {community.status !== "Active" ? <Badge highContrast color="amber">{community.status}</Badge> : null}
            <Text size="2" color="gray">
              Created by {community.creatorName} on {formatDate(community.createdAt)}
            </Text>
          </Flex>
        </div>
        <Flex gap="2" wrap="wrap">
          {community.role === "VIEWER" ? (
            community.requested ? (
              <Badge highContrast size="2" color="amber" data-testid="join-requested">
                Join requested
              </Badge>
            ) : (
              <JoinCommunityButton privateCommunity={community.visibility === "PRIVATE"} action={join} />
            )
          ) : (
            <>
              <AddFilesDialog communityId={community.communityId} />
              {moderator && administration ? (
                <SettingsDialog description={community.description} visibility={community.visibility} role={community.role} userId={props.userId} administration={administration} />
              ) : null}
              {community.role !== "OWNER" ? (
                <Button variant="ghost" color="gray" onClick={() => leave.submit("leave")} loading={leave.busy}>
                  Leave
                </Button>
              ) : null}
            </>
          )}
        </Flex>
      </header>

      {!member ? (
        <Callout.Root color="gray">
          <Callout.Icon>
            <InfoIcon />
          </Callout.Icon>
          <Callout.Text>Join the community to open its documents and use them in your workspaces.</Callout.Text>
        </Callout.Root>
      ) : null}

      <div className="dc-community-detail">
        <section className="dc-lib-card" aria-label="Community documents">
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            <TextField.Root type="search" placeholder="Search documents" aria-label="Search documents" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          </form>
          {community.resources.length === 0 ? (
            <div className="dc-empty" data-testid="resources-empty">
              <DocIcon size={28} />
              <Text size="2" color="gray">
                No documents available for this community.
              </Text>
            </div>
          ) : (
            <ul className="dc-community-resources" aria-label="Documents" style={{ marginTop: 12 }}>
              {community.resources.map((r) => (
                <li key={r.resourceId} className="dc-community-resource" aria-current={opened?.documentId === r.documentId || undefined} data-testid="resource-row" data-document-id={r.documentId}>
                  {member ? (
                    <button type="button" className="dc-community-resource__open" onClick={() => setOpen(r.documentId)} title={r.resourceName} data-testid="open-resource">
                      <ResourceLabel name={r.resourceName} attachedAt={r.attachedAt} contributor={r.contributorName} />
                    </button>
                  ) : (
                    <div className="dc-community-resource__open" style={{ cursor: "default" }} title={r.resourceName}>
                      <ResourceLabel name={r.resourceName} attachedAt={r.attachedAt} contributor={r.contributorName} />
                    </div>
                  )}
                  {member ? (
                    <Flex gap="2" align="center" wrap="wrap" justify="end" className="dc-community-resource__actions">
                      <AddToWorkspaceDialog documentId={r.documentId} documentName={r.resourceName} hasWorkspaces={props.hasWorkspaces} />
                      {!r.own ? <ReportDialog resourceId={r.resourceId} documentName={r.resourceName} /> : null}
                      {r.own || moderator ? (
                        <Button size="1" variant="ghost" color="red" onClick={() => remove.submit("remove", { resourceId: r.resourceId })} data-testid="remove-resource">
                          Remove
                        </Button>
                      ) : null}
                    </Flex>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
        {member ? (
          <section className="dc-lib-card" aria-label="Preview">
            {opened ? (
              <>
                <Text as="p" size="2" weight="medium" mb="2" className="dc-break">
                  {opened.resourceName}
                </Text>
                <iframe
                  className="dc-community-preview"
                  title={`Preview of ${opened.resourceName}`}
                  src={`/documents/download/${encodeURIComponent(opened.documentId)}?inline=1`}
                  data-testid="resource-preview"
                />
              </>
            ) : (
              <div className="dc-empty">
                <Text size="2" color="gray">
                  Choose a document to preview it.
                </Text>
              </div>
            )}
          </section>
        ) : null}
      </div>
    </div>
  );
}

/** The name cut to 15 characters and the date the document joined, dd-mm-yyyy (spec 001 §9). */
function ResourceLabel({ name, attachedAt, contributor }: { name: string; attachedAt: string; contributor: string }) {
  return (
    <>
      <Text size="2" weight="medium" data-testid="resource-name">
        {truncate(name, NAME_CUT)}
      </Text>
      <Text size="1" color="gray">
        {formatDate(attachedAt)} · {contributor}
      </Text>
    </>
  );
}
