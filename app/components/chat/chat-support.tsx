import { IconButton, Popover, SegmentedControl, Select, Tabs, Text, TextField } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useEffect, useState } from "react";
import type { ChatDocument } from "./chat-api";
import { exportUrl, loadOverview } from "./chat-api";
import { DocIcon, DownloadIcon, LifebuoyIcon } from "#app/components/icons";
import type { ChatSettings, FontSize } from "./chat-settings";
import { LANGUAGES } from "#domain/identity/languages";

export type SupportTab = "help" | "summary" | "settings" | "download";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tab: SupportTab;
  onTabChange: (tab: SupportTab) => void;
  conversationId: string | null;
  documents: ChatDocument[];
  settings: ChatSettings;
  onSettingsChange: (patch: Partial<ChatSettings>) => void;
  isResume: boolean;
  showPosition: boolean;
};

/** The chat-support popover: Help, Summary, Chat Settings, Download (spec 001 §2). */
export function ChatSupport({ open, onOpenChange, tab, onTabChange, conversationId, documents, settings, onSettingsChange, isResume, showPosition }: Props) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Tooltip content="Chat support">
        <Popover.Trigger>
          <IconButton variant="ghost" color="gray" aria-label="Chat support" data-testid="chat-support">
            <LifebuoyIcon size={18} />
          </IconButton>
        </Popover.Trigger>
      </Tooltip>
      <Popover.Content width="360px" maxWidth="calc(100vw - 24px)" side="top" align="start" className="dc-chat-support" aria-label="Chat support">
        <Tabs.Root value={tab} onValueChange={(v) => onTabChange(v as SupportTab)}>
          <Tabs.List size="1">
            <Tabs.Trigger value="help">Help</Tabs.Trigger>
            <Tabs.Trigger value="summary">Summary</Tabs.Trigger>
            <Tabs.Trigger value="settings">Chat Settings</Tabs.Trigger>
            <Tabs.Trigger value="download">Download</Tabs.Trigger>
          </Tabs.List>
          <div className="dc-chat-support__body">
            <Tabs.Content value="help">
              <HelpTab isResume={isResume} />
            </Tabs.Content>
            <Tabs.Content value="summary">{tab === "summary" ? <SummaryTab conversationId={conversationId} /> : null}</Tabs.Content>
            <Tabs.Content value="settings">
              <SettingsTab settings={settings} onChange={onSettingsChange} showPosition={showPosition} />
            </Tabs.Content>
            <Tabs.Content value="download">
              <DownloadTab conversationId={conversationId} documents={documents} />
            </Tabs.Content>
          </div>
        </Tabs.Root>
      </Popover.Content>
    </Popover.Root>
  );
}

function HelpTab({ isResume }: { isResume: boolean }) {
  return (
    <div className="dc-chat-help">
      <Text as="p" size="2" weight="bold">
        What can I ask?
      </Text>
      <ul>
        {isResume ? (
          <>
            <li>Ask for changes to your resume: “Rewrite my summary for a data analyst role”.</li>
            <li>Ask what to improve: “Which bullet points are weakest?”</li>
          </>
        ) : (
          <>
            <li>Facts from your files: “What deadline does the contract set?”</li>
            <li>Summaries: “Summarise chapter 2”.</li>
            <li>Comparisons: “How do the two reports differ on costs?”</li>
          </>
        )}
        <li>
          Type <kbd>@</kbd> to name a document of this workspace.
        </li>
        <li>Select text in an open file to insert it, ask about it or have it explained.</li>
        <li>
          <kbd>Enter</kbd> sends, <kbd>Shift</kbd>+<kbd>Enter</kbd> starts a new line.
        </li>
      </ul>
      <Text as="p" size="1" color="gray">
        Every answer lists the pages it quotes: click a source to open the page.
      </Text>
    </div>
  );
}

function SummaryTab({ conversationId }: { conversationId: string | null }) {
  const [state, setState] = useState<{ summary: string; questions: string[] } | { error: string } | null>(null);
  useEffect(() => {
    if (!conversationId) return;
    const controller = new AbortController();
    setState(null);
    loadOverview(conversationId, controller.signal).then(
      (o) => setState(o),
      (e: unknown) => !controller.signal.aborted && setState({ error: e instanceof Error ? e.message : "The summary could not be loaded." }),
    );
    return () => controller.abort();
  }, [conversationId]);
  if (!conversationId)
    return (
      <Text as="p" size="2" color="gray">
        Ask your first question to start this chat; its summary appears here.
      </Text>
    );
  if (!state)
    return (
      <Text as="p" size="2" color="gray" role="status">
        Loading the summary…
      </Text>
    );
  if ("error" in state)
    return (
      <Text as="p" size="2" color="red" role="alert">
        {state.error}
      </Text>
    );
  return (
    <Text as="p" size="2" className="dc-chat-summary" data-testid="chat-summary">
      {state.summary || "Nothing to summarise yet."}
    </Text>
  );
}

function SettingsTab({ settings, onChange, showPosition }: { settings: ChatSettings; onChange: (patch: Partial<ChatSettings>) => void; showPosition: boolean }) {
  return (
    <div className="dc-chat-settings" data-testid="chat-settings">
      <div className="dc-chat-settings__row">
        <Text as="span" size="2" weight="medium" id="dc-chat-font-label">
          Font size
        </Text>
        <SegmentedControl.Root value={settings.fontSize} onValueChange={(v) => onChange({ fontSize: v as FontSize })} aria-labelledby="dc-chat-font-label" size="1">
          <SegmentedControl.Item value="Small">Small</SegmentedControl.Item>
          <SegmentedControl.Item value="Medium">Medium</SegmentedControl.Item>
          <SegmentedControl.Item value="Large">Large</SegmentedControl.Item>
        </SegmentedControl.Root>
      </div>
      <div className="dc-chat-settings__row">
        <Text as="span" size="2" weight="medium" id="dc-chat-lang-label">
          Response language
        </Text>
        <Select.Root value={settings.responseLanguage} onValueChange={(v) => onChange({ responseLanguage: v })} size="1">
          <Select.Trigger aria-labelledby="dc-chat-lang-label" data-testid="response-language" />
          <Select.Content position="popper" className="dc-chat-langlist">
            {LANGUAGES.map((l) => (
              <Select.Item key={l} value={l}>
                {l}
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </div>
      {showPosition ? (
        <div className="dc-chat-settings__row">
          <Text as="span" size="2" weight="medium" id="dc-chat-pos-label">
            Chat position
          </Text>
          <SegmentedControl.Root value={settings.isChatOnLeft ? "left" : "right"} onValueChange={(v) => onChange({ isChatOnLeft: v === "left" })} aria-labelledby="dc-chat-pos-label" size="1">
            <SegmentedControl.Item value="left">Left</SegmentedControl.Item>
            <SegmentedControl.Item value="right">Right</SegmentedControl.Item>
          </SegmentedControl.Root>
        </div>
      ) : null}
      <Text as="p" size="1" color="gray">
        Saved in this browser for your account.
      </Text>
    </div>
  );
}

function DownloadTab({ conversationId, documents }: { conversationId: string | null; documents: ChatDocument[] }) {
  const [filter, setFilter] = useState("");
  const shown = documents.filter((d) => d.documentName.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <div className="dc-chat-download">
      <Text as="p" size="2" weight="bold">
        Download this chat
      </Text>
      {conversationId ? (
        <ul className="dc-chat-download__formats">
          <li>
            <a href={exportUrl(conversationId, "pdf")} download data-testid="download-pdf">
              <DownloadIcon size={14} /> PDF (.pdf)
            </a>
          </li>
          <li>
            <a href={exportUrl(conversationId, "txt")} download data-testid="download-txt">
              <DownloadIcon size={14} /> Plain Text (.txt)
            </a>
          </li>
        </ul>
      ) : (
        <Text as="p" size="2" color="gray">
          Ask a question first: an empty chat has nothing to download.
        </Text>
      )}
      <Text as="p" size="2" weight="bold" mt="2">
        Documents of this workspace
      </Text>
      <TextField.Root size="1" placeholder="Search documents" aria-label="Search documents" value={filter} onChange={(e) => setFilter(e.target.value)} />
      {shown.length === 0 ? (
        <Text as="p" size="2" color="gray" data-testid="no-matching-documents">
          No matching documents found.
        </Text>
      ) : (
        <ul className="dc-chat-download__docs">
          {shown.map((d) => (
            <li key={d.documentId}>
              <a href={`/documents/download/${encodeURIComponent(d.documentId)}?type=document`} download title={d.documentName}>
                <DocIcon size={14} /> <span>{d.documentName}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
