import { Badge, Button, Dialog, Flex, Heading, Select, Separator, Text, TextArea, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { CommunityAdministration } from "#application/community/community-queries";
import type { CommunityRole, Visibility } from "#domain/community/community";
import { SettingsIcon } from "#app/components/icons";
import { formatDate } from "#app/components/library/format";
import { useCommunityAction } from "./use-community-action";

const ROLE_LABEL: Record<CommunityRole, string> = { VIEWER: "Viewer", MEMBER: "Member", MODERATOR: "Moderator", OWNER: "Owner" };

/**
 * Settings for moderators and the owner: the description (and, for the owner,
 * the visibility), members and their roles, join requests, reports.
 */
export function SettingsDialog(props: {
  description: string;
  visibility: Visibility;
  role: CommunityRole;
  userId: string;
  administration: CommunityAdministration;
}) {
  const { administration, role } = props;
  const owner = role === "OWNER";
  const [description, setDescription] = useState(props.description);
  const [visibility, setVisibility] = useState<Visibility>(props.visibility);
  const [username, setUsername] = useState("");
  const [newRole, setNewRole] = useState<CommunityRole>("MEMBER");
  const settings = useCommunityAction();
  const members = useCommunityAction(() => setUsername(""));
  const requests = useCommunityAction();
  const reports = useCommunityAction();
  const assignable: CommunityRole[] = owner ? ["VIEWER", "MEMBER", "MODERATOR", "OWNER"] : ["VIEWER", "MEMBER"];

  return (
    <Dialog.Root>
      <Dialog.Trigger>
        <Button variant="soft" color="gray" data-testid="community-settings">
          <SettingsIcon size={16} /> Settings
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="640px">
        <Dialog.Title>Settings</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          {owner ? "You own this community." : "You moderate this community."}
        </Dialog.Description>

        <Flex direction="column" gap="2" mt="4">
          <Heading as="h3" size="3">
            About
          </Heading>
          <Text as="label" size="2" weight="medium" htmlFor="community-settings-description">
            Community Description
          </Text>
          <TextArea id="community-settings-description" value={description} rows={3} maxLength={1000} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Text size="2" weight="medium" id="community-settings-visibility">
            Visibility
          </Text>
          <Select.Root value={visibility} onValueChange={(v) => setVisibility(v as Visibility)} disabled={!owner}>
            <Select.Trigger aria-labelledby="community-settings-visibility" />
            <Select.Content position="popper">
              <Select.Item value="PUBLIC">Public</Select.Item>
              <Select.Item value="PRIVATE">Private</Select.Item>
            </Select.Content>
          </Select.Root>
          <Flex justify="end">
            <Button
              disabled={!description.trim() || (description === props.description && visibility === props.visibility)}
              loading={settings.busy}
              onClick={() => settings.submit("settings", { description, visibility })}
              data-testid="save-settings"
            >
              Save
            </Button>
          </Flex>
        </Flex>

        <Separator size="4" my="4" />
        <Heading as="h3" size="3">
          Members
        </Heading>
        <ul className="dc-community-resources" aria-label="Members">
          {administration.members.map((m) => (
            <li key={m.userId} className="dc-community-resource" data-testid="member-row">
              <Text size="2" className="dc-grow dc-ellipsis">
                {m.name}
              </Text>
              {m.role === "OWNER" || m.userId === props.userId || (m.role === "MODERATOR" && !owner) ? (
                <Badge highContrast>{ROLE_LABEL[m.role]}</Badge>
              ) : (
                <>
                  <Select.Root value={m.role} onValueChange={(r) => members.submit("change-role", { userId: m.userId, role: r })}>
                    <Select.Trigger aria-label={`Role of ${m.name}`} variant="soft" />
                    <Select.Content position="popper">
                      {assignable.map((r) => (
                        <Select.Item key={r} value={r}>
                          {r === "OWNER" ? "Owner (hand over)" : ROLE_LABEL[r]}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                  <Button size="1" variant="ghost" color="red" onClick={() => members.submit("remove-member", { userId: m.userId })}>
                    Remove
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (username.trim()) members.submit("add-member", { username: username.trim(), role: newRole });
          }}
        >
          <Flex gap="2" mt="3" wrap="wrap" align="end">
            <label className="dc-grow">
              <Text as="div" size="2" weight="medium" mb="1">
                Add by username
              </Text>
              <TextField.Root value={username} onChange={(e) => setUsername(e.currentTarget.value)} autoComplete="off" />
            </label>
            <Select.Root value={newRole} onValueChange={(r) => setNewRole(r as CommunityRole)}>
              <Select.Trigger aria-label="Role of the new member" />
              <Select.Content position="popper">
                {assignable
                  .filter((r) => r !== "OWNER")
                  .map((r) => (
                    <Select.Item key={r} value={r}>
                      {ROLE_LABEL[r]}
                    </Select.Item>
                  ))}
              </Select.Content>
            </Select.Root>
            <Button type="submit" variant="soft" disabled={!username.trim()} loading={members.busy}>
              Add
            </Button>
          </Flex>
        </form>

        <Separator size="4" my="4" />
        <Heading as="h3" size="3">
          Join requests
        </Heading>
        {administration.joinRequests.length === 0 ? (
          <Text as="p" size="2" color="gray">
            No one is waiting to join.
          </Text>
        ) : (
          <ul className="dc-community-resources" aria-label="Join requests">
            {administration.joinRequests.map((r) => (
              <li key={r.userId} className="dc-community-resource">
                <Text size="2" className="dc-grow dc-ellipsis">
                  {r.name} · {formatDate(r.requestedAt)}
                </Text>
                <Button size="1" onClick={() => requests.submit("approve", { userId: r.userId })} loading={requests.busy}>
                  Approve
                </Button>
                <Button size="1" variant="soft" color="gray" onClick={() => requests.submit("decline", { userId: r.userId })}>
                  Decline
                </Button>
              </li>
            ))}
          </ul>
        )}

        <Separator size="4" my="4" />
        <Heading as="h3" size="3">
          Reports
        </Heading>
        {administration.reports.length === 0 ? (
          <Text as="p" size="2" color="gray">
            No reported documents.
          </Text>
        ) : (
          <ul className="dc-community-resources" aria-label="Reports">
            {administration.reports.map((r) => (
              <li key={r.reportId} className="dc-community-resource" data-testid="report-row">
                <Flex direction="column" className="dc-grow">
                  <Text size="2" weight="medium" className="dc-ellipsis">
                    {r.resourceName}
                  </Text>
                  <Text size="1" color="gray" className="dc-break">
                    {r.reporterName}: {r.reason}
                  </Text>
                </Flex>
                <Button size="1" color="red" variant="soft" onClick={() => reports.submit("remove", { resourceId: r.resourceId })} loading={reports.busy}>
                  Remove document
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
