import { Button, Flex, Heading, IconButton, Text, Tooltip } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { ChatIcon, ChevronLeftIcon, ExitFullscreenIcon, FileIcon, FilePlusIcon, FullscreenIcon, PlusIcon, SettingsIcon } from "#app/components/icons";
import { LogoMark } from "#app/components/logo";
import type { WorkspaceDocument } from "#application/workspace/workspace-queries";
import { WorkspaceSwitcher, type SwitcherItem } from "./workspace-switcher";

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
  switcher: SwitcherItem[];
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
  const { productName, switcher, fullscreen, flash, isResume, docs, openIds, activeId, conversations, conversationId } = props;
  const [filesAll, setFilesAll] = useState(false);
  const [chatsAll, setChatsAll] = useState(false);
  const shownFiles = filesAll ? docs : docs.slice(0, SHOW_PAGE);
  const shownChats = chatsAll ? conversations : conversations.slice(0, SHOW_PAGE);
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

      <WorkspaceSwitcher items={switcher} currentId={props.workspaceId} onSwitch={props.onSwitch} trigger={props.switcherTrigger} />

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

      <section className={`dc-wsx-section${flash ? " is-highlight" : ""}`} aria-labelledby="related-files">
        <div className="dc-wsx-section__head">
          <Heading as="h2" size="2" weight="bold" id="related-files">
            Related Files ({docs.length})
          </Heading>
          {isResume ? null : (
            <Tooltip content="Attach files">
              <IconButton variant="ghost" size="1" aria-label="Attach files" onClick={props.onAttach} data-testid="open-attach">
                <FilePlusIcon size={16} />
              </IconButton>
            </Tooltip>
          )}
        </div>
        {docs.length === 0 ? (
          <Text size="1" color="gray">
            No files yet.
          </Text>
        ) : (
          <ul className="dc-wsx-list" data-testid="related-files">
            {shownFiles.map((d) => (
              <li key={d.documentId}>
                <button
                  type="button"
                  className={`dc-wsx-list__item${d.documentId === activeId ? " is-active" : ""}`}
                  onClick={() => props.onOpenFile(d.documentId)}
                  title={d.documentName}
                  data-testid="related-file"
                  data-name={d.documentName}
                  aria-current={d.documentId === activeId ? "true" : undefined}
                >
                  <FileIcon size={14} />
                  <span className="dc-ws-ellipsis">{d.documentName}</span>
                  {openIds.includes(d.documentId) ? <span className="dc-wsx-list__dot" aria-label="open" /> : null}
                </button>
              </li>
            ))}
          </ul>
        )}
        {docs.length > SHOW_PAGE ? (
          <button type="button" className="dc-ws-link dc-ws-link--button dc-wsx-more" onClick={() => setFilesAll((v) => !v)}>
            {filesAll ? "show Less" : "show More"}
          </button>
        ) : null}
      </section>

      <section className="dc-wsx-section" aria-labelledby="workspace-chats">
        <div className="dc-wsx-section__head">
          <Heading as="h2" size="2" weight="bold" id="workspace-chats">
            Workspace Chats
          </Heading>
        </div>
        {conversations.length === 0 ? (
          <Text size="1" color="gray">
            No chats yet.
          </Text>
        ) : (
          <ul className="dc-wsx-list" data-testid="workspace-chats">
            {shownChats.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  className={`dc-wsx-list__item${c.id === conversationId ? " is-active" : ""}`}
                  onClick={() => props.onOpenChat(c.id)}
                  title={c.title || "New Chat"}
                  aria-current={c.id === conversationId ? "true" : undefined}
                >
                  <ChatIcon size={14} />
                  <span className="dc-ws-ellipsis">{c.title || "New Chat"}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {conversations.length > SHOW_PAGE ? (
          <button type="button" className="dc-ws-link dc-ws-link--button dc-wsx-more" onClick={() => setChatsAll((v) => !v)}>
            {chatsAll ? "show Less" : "show More"}
          </button>
        ) : null}
      </section>

      <div className="dc-wsx-sidebar__foot">
        <Button variant="ghost" color="gray" onClick={props.onOpenSettings} data-testid="open-settings">
          <SettingsIcon size={16} />
          Workspace Settings
        </Button>
      </div>
    </div>
  );
}
