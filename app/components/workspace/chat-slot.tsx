import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ChatCitation, ChatConversationSummary, ChatDocument } from "#app/components/chat/chat-api";
import { listConversations, NEW_CHAT_ID } from "#app/components/chat/chat-api";
import { ChatPanel, type PendingChatInsert } from "#app/components/chat/chat-panel";
import { openCitation } from "#app/components/viewer/events";

/**
 * Window events shared with the document viewer (app/components/viewer/events.ts):
 * a citation click asks to open a page; the viewer's selection tip and capture
 * mode talk to the chat when the screen passes no pendingInsert of its own.
 */
const SELECTION_EVENT = "docuchat:viewer-selection";
const CAPTURE_EVENT = "docuchat:viewer-capture";

type ChatSlotProps = {
  conversationId: string | null;
  workspaceId: string;
  hasDocuments: boolean;
  /** Optional extras the chat uses when the screen passes them; otherwise it loads or keeps them itself. */
  documents?: { documentId: string; documentName: string; pageCount: number }[];
  workspaceType?: "Conversation" | "Resume Builder";
  conversations?: ChatConversationSummary[];
  title?: string;
  onConversationChange?: (id: string) => void;
  onOpenCitation?: (citation: ChatCitation) => void;
  pendingInsert?: PendingChatInsert | null;
  onPendingInsertConsumed?: () => void;
  readOnly?: boolean;
  /** 'sheet' inside the mobile bottom sheet; detected from the surrounding markup when omitted. */
  variant?: "panel" | "sheet";
  /** The input's capture icon (the screen knows whether a file is open). */
  onCapture?: () => void;
};

/**
 * The chat panel inside the workspace screen. The screen draws the panel's
 * frame (title bar, close); the chat sizes that frame (47–90 % wide, left or
 * right, sheet 25–80 vh) from the user's chat settings.
 */
export function ChatSlot(props: ChatSlotProps) {
  const { conversationId, workspaceId, hasDocuments } = props;
  const revalidator = useRevalidator();
  const ref = useRef<HTMLDivElement>(null);
  const [variant, setVariant] = useState<"panel" | "sheet">(props.variant ?? "panel");
  useLayoutEffect(() => {
    if (props.variant) setVariant(props.variant);
    else if (ref.current?.closest(".dc-wsx-sheet, [data-chat-sheet]")) setVariant("sheet");
  }, [props.variant]);

  // The chat this slot shows: the screen's, or one the chat created when the screen does not track it.
  const [ownId, setOwnId] = useState<string | null>(null);
  useEffect(() => setOwnId(null), [conversationId]);
  const shownId = ownId ?? conversationId ?? NEW_CHAT_ID;

  const [loadedDocs, setLoadedDocs] = useState<ChatDocument[] | null>(null);
  const [loadedType, setLoadedType] = useState<"Conversation" | "Resume Builder" | undefined>(undefined);
  useEffect(() => {
    if (props.documents && props.workspaceType) return;
    const controller = new AbortController();
    fetch(`/api/workspaces/${encodeURIComponent(workspaceId)}`, { credentials: "same-origin", signal: controller.signal })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: { workspace?: { type?: string; documents?: ChatDocument[] } } | null) => {
        if (!body?.workspace) return;
        setLoadedDocs((body.workspace.documents ?? []).map((d) => ({ documentId: d.documentId, documentName: d.documentName, pageCount: d.pageCount })));
        setLoadedType(body.workspace.type === "Resume Builder" ? "Resume Builder" : "Conversation");
      })
      .catch(() => undefined);
    return () => controller.abort();
    // Reload when the workspace's file count changes (files attached).
  }, [workspaceId, hasDocuments, props.documents, props.workspaceType, revalidator.state === "idle"]);

  const [loadedChats, setLoadedChats] = useState<ChatConversationSummary[]>([]);
  const refreshChats = useCallback(() => {
    if (props.conversations) return;
    void listConversations(workspaceId).then(setLoadedChats);
  }, [props.conversations, workspaceId]);
  useEffect(() => {
    if (variant === "sheet") refreshChats();
  }, [variant, refreshChats]);

  // Selection-tip actions and captures from the viewer, when the screen does not route them itself.
  const [eventInsert, setEventInsert] = useState<PendingChatInsert | null>(null);
  const routed = props.pendingInsert !== undefined;
  useEffect(() => {
    if (routed) return;
    // Only the chat on screen takes them (the desktop panel and the mobile sheet may both be mounted).
    const shown = () => Boolean(ref.current && ref.current.getClientRects().length > 0);
    const onSelection = (event: Event) => {
      const detail = (event as CustomEvent<{ action?: string; text?: string }>).detail;
      if (!shown() || typeof detail?.text !== "string" || !detail.text.trim()) return;
      if (detail.action === "insert") setEventInsert({ type: "text", content: detail.text, autoSend: false });
      else if (detail.action === "ask") setEventInsert({ type: "question", content: detail.text, autoSend: true });
      else if (detail.action === "explain") setEventInsert({ type: "explain", content: detail.text, autoSend: true });
    };
    const onCapture = (event: Event) => {
      const detail = (event as CustomEvent<{ dataUrl?: string }>).detail;
      if (!shown() || typeof detail?.dataUrl !== "string" || !detail.dataUrl.startsWith("data:image/")) return;
      setEventInsert({ type: "image", content: detail.dataUrl, autoSend: false });
    };
    window.addEventListener(SELECTION_EVENT, onSelection);
    window.addEventListener(CAPTURE_EVENT, onCapture);
    return () => {
      window.removeEventListener(SELECTION_EVENT, onSelection);
      window.removeEventListener(CAPTURE_EVENT, onCapture);
    };
  }, [routed]);

  const documents = props.documents ?? loadedDocs ?? [];
  const onConversationChange = (id: string) => {
    if (props.onConversationChange) props.onConversationChange(id);
    else setOwnId(id);
  };
  const onOpenCitation = (citation: ChatCitation) => {
    if (props.onOpenCitation) props.onOpenCitation(citation);
    else openCitation({ documentId: citation.documentId, pageNumber: citation.pageNumber, highlightText: citation.quote });
  };

  return (
    <div ref={ref} className="dc-wsx-chatbody" data-testid="chat-slot" data-conversation-id={shownId} data-workspace-id={workspaceId} style={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
      <ChatPanel
        workspaceId={workspaceId}
        workspaceType={props.workspaceType ?? loadedType}
        documents={documents}
        hasDocuments={hasDocuments || documents.length > 0}
        conversations={props.conversations ?? loadedChats}
        conversationId={shownId}
        title={props.title}
        onConversationChange={onConversationChange}
        onConversationUpdated={() => {
          revalidator.revalidate();
          refreshChats();
        }}
        onOpenCitation={onOpenCitation}
        pendingInsert={routed ? props.pendingInsert : eventInsert}
        onPendingInsertConsumed={routed ? props.onPendingInsertConsumed : () => setEventInsert(null)}
        readOnly={props.readOnly}
        variant={variant}
        showHeader={false}
        onCapture={props.onCapture}
      />
    </div>
  );
}
