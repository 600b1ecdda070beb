import { Button, Flex, Heading, IconButton, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { ChatIcon, ChevronLeftIcon, ExitFullscreenIcon, FileIcon, FilePlusIcon, FullscreenIcon, PlusIcon, SettingsIcon } from "#app/components/icons";
import { LogoMark } from "#app/components/logo";
import type { WorkspaceDocument } from "#application/workspace/workspace-queries";
import { WorkspaceSwitcher } from "./workspace-switcher";

/** Lists longer than this show "show More". */
const SHOW_PAGE = 6;

export type SidebarChat = { id: string; title: string };

/**
 * The workspace screen's sidebar above 1024 px: brand, fullscreen and collapse,
 * the workspace switcher, Create Workspace and Chat Now, Related Files,
 * Workspace Chats and Workspace Settings.
 */
export function WorkspaceSidebar(props: {
  productName: string;
  workspaceId: string;
  switcherTrigger: ReactNode;
  onSwitch: (id: string) => void;
  fullscreen: boolean;
  onToggleFullscreen: () => void;
  onCollapse: () => void;
  flash: boolean;
  isResume: boolean;
  docs: WorkspaceDocument[];
  openIds: string[];
  activeId: string | null;
  onOpenFile: (id: string) => void;
  onAttach: () => void;
  conversations: SidebarChat[];
  conversationId: string | null;
  onOpenChat: (id: string) => void;
  onNewChat: () => void;
  onOpenSettings: () => void;
}) {
  const { productName, fullscreen, flash, isResume, docs, openIds, activeId, conversations, conversationId } = props;
  return (
    <div className="dc-wsx-sidebar__inner">
      <div className="dc-wsx-sidebar__top">
        <Link to="/" className="dc-wsx-brand" aria-label={`${productName} home`}>
          <LogoMark size={26} />
          <span>{productName}</span>
        </Link>
        <Tooltip content={fullscreen ? "Exit fullscreen (Esc)" : "Fullscreen"}>
          <IconButton variant="ghost" color="gray" size="1" onClick={props.onToggleFullscreen} aria-label={fullscreen ? "Exit fullscreen" : "Fullscreen"} aria-pressed={fullscreen}>
            {fullscreen ? <ExitFullscreenIcon size={16} /> : <FullscreenIcon size={16} />}
          </IconButton>
        </Tooltip>
        <Tooltip content="Collapse sidebar">
          <IconButton variant="ghost" color="gray" size="1" onClick={props.onCollapse} aria-label="Collapse sidebar" data-testid="collapse-sidebar">
            <ChevronLeftIcon size={16} />
          </IconButton>
        </Tooltip>
      </div>

      <WorkspaceSwitcher currentId={props.workspaceId} onSwitch={props.onSwitch} trigger={props.switcherTrigger} />

      <Flex direction="column" gap="2">
        <Button asChild variant="soft" size="2">
          <Link to="/workspace/create" data-testid="sidebar-create-workspace">
            <PlusIcon size={16} />
            Create Workspace
          </Link>
        </Button>
        <Button size="2" onClick={props.onNewChat} data-testid="chat-now">
          <ChatIcon size={16} />
          Chat Now
        </Button>
      </Flex>

      <SidebarSection
        id="related-files"
        heading={`Related Files (${docs.length})`}
        highlight={flash}
        action={
          isResume ? null : (
            <Tooltip content="Attach files">
              <IconButton variant="ghost" size="1" aria-label="Attach files" onClick={props.onAttach} data-testid="open-attach">
                <FilePlusIcon size={16} />
              </IconButton>
            </Tooltip>
          )
        }
        empty="No files yet."
        listTestId="related-files"
        items={docs.map((d) => ({
          key: d.documentId,
          label: d.documentName,
          icon: <FileIcon size={14} />,
          active: d.documentId === activeId,
          onOpen: () => props.onOpenFile(d.documentId),
          testId: "related-file",
          marker: openIds.includes(d.documentId) ? <span className="dc-wsx-list__dot" aria-label="open" /> : null,
        }))}
      />

      <SidebarSection
        id="workspace-chats"
        heading="Workspace Chats"
        empty="No chats yet."
        listTestId="workspace-chats"
        items={conversations.map((c) => ({
          key: c.id,
          label: c.title || "New Chat",
          icon: <ChatIcon size={14} />,
          active: c.id === conversationId,
          onOpen: () => props.onOpenChat(c.id),
        }))}
      />

      <div className="dc-wsx-sidebar__foot">
        <Button variant="ghost" color="gray" onClick={props.onOpenSettings} data-testid="open-settings">
          <SettingsIcon size={16} />
          Workspace Settings
        </Button>
      </div>
    </div>
  );
}

type SidebarItem = {
  key: string;
  label: string;
  icon: ReactNode;
  active: boolean;
  onOpen: () => void;
  /** The item's test id and data-name (files have them, chats do not). */
  testId?: string;
  /** Shown after the label (an open file's dot). */
  marker?: ReactNode;
};

/** A titled list in the sidebar: the first few items, "show More" for the rest. */
function SidebarSection(props: { id: string; heading: string; highlight?: boolean; action?: ReactNode; empty: string; listTestId: string; items: SidebarItem[] }) {
  const { items } = props;
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, SHOW_PAGE);
  return (
    <section className={`dc-wsx-section${props.highlight ? " is-highlight" : ""}`} aria-labelledby={props.id}>
      <div className="dc-wsx-section__head">
        <Heading as="h2" size="2" weight="bold" id={props.id}>
          {props.heading}
        </Heading>
        {props.action}
      </div>
      {items.length === 0 ? (
        <Text size="1" color="gray">
          {props.empty}
        </Text>
      ) : (
        <ul className="dc-wsx-list" data-testid={props.listTestId}>
          {shown.map((item) => (
            <li key={item.key}>
              <button
                type="button"
                className={`dc-wsx-list__item${item.active ? " is-active" : ""}`}
                onClick={item.onOpen}
                title={item.label}
                data-testid={item.testId}
                data-name={item.testId ? item.label : undefined}
                aria-current={item.active ? "true" : undefined}
              >
                {item.icon}
                <span className="dc-ws-ellipsis">{item.label}</span>
                {item.marker}
              </button>
            </li>
          ))}
        </ul>
      )}
      {items.length > SHOW_PAGE ? (
        <button type="button" className="dc-ws-link dc-ws-link--button dc-wsx-more" onClick={() => setAll((v) => !v)}>
          {all ? "show Less" : "show More"}
        </button>
      ) : null}
    </section>
  );
}
