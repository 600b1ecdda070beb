import { Callout, IconButton, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import { useToast } from "#app/components/toast";
import { useCsrfToken } from "#app/components/use-csrf";
import chatStyles from "#app/styles/chat.css";
import {
  attachImage,
  ChatApiError,
  chatImageUrl,
  createConversation,
  loadConversation,
  loadOverview,
  NEW_CHAT_ID,
  rateMessage,
  streamAnswer,
  stripTrailingQuestionMarks,
  type ChatCitation,
  type ChatConversationSummary,
  type ChatDocument,
  type ChatMessage,
} from "./chat-api";
import { CloseIcon, HistoryIcon, MinusIcon, SparkIcon } from "#app/components/icons";
import { ChatInput, READ_ONLY_HINT } from "./chat-input";
import { useChatSettings, type ChatSettings } from "./chat-settings";
import { ChatSupport, type SupportTab } from "./chat-support";
import { speechTagFor } from "./languages";
import { BotAnswer, UserBubble, useVersionIndex } from "./message-item";
import { conversationReducer, localId, localQuestion, openConversation, pendingAnswer, toTurns, type ChatError } from "./conversation-reducer";
import { HeightHandle, WidthHandle } from "./resize-handles";
import { useChatLayout } from "./use-chat-layout";
import { useResumeChat, useResumeFixRequests } from "#app/components/resume/resume-chat";

export const chatLinks = () => [{ rel: "stylesheet", href: chatStyles }];

/** From the viewer: selected text (Insert in Chat / Ask Question / Explain) or a captured area ('image', a data URL). */
export type PendingChatInsert = { type: "text" | "question" | "explain" | "image"; content: string; autoSend: boolean };

export type ChatPanelProps = {
  workspaceId: string;
  workspaceType?: "Conversation" | "Resume Builder";
  /** The workspace's documents (citations and @ mentions are limited to them). */
  documents: ChatDocument[];
  /** Whether the workspace has files, when `documents` may still be loading. */
  hasDocuments?: boolean;
  /** The workspace's chats, newest first (the mobile sheet lists up to 6). */
  conversations?: ChatConversationSummary[];
  /** null or 'new-chat' for an unsaved chat. */
  conversationId: string | null;
  /** The chat's title as the screen knows it (falls back to the loaded one, then 'New Chat'). */
  title?: string;
  onConversationChange: (id: string) => void;
  /** After an answer is saved (the title and the chat list may have changed). */
  onConversationUpdated?: () => void;
  onOpenCitation: (citation: ChatCitation) => void;
  pendingInsert?: PendingChatInsert | null;
  onPendingInsertConsumed?: () => void;
  /** An admin acting as the user: nothing can be sent. */
  readOnly?: boolean;
  /** Controlled settings; by default the panel keeps them in localStorage (`docuchat.chatSettings`). */
  settings?: ChatSettings;
  onSettingsChange?: (patch: Partial<ChatSettings>) => void;
  /** 'panel' (beside the documents) or 'sheet' (the bottom sheet below 1024 px). */
  variant?: "panel" | "sheet";
  /** Render the panel's own header (title, resize handle, close). Off when the screen draws one. */
  showHeader?: boolean;
  onClose?: () => void;
  /** The input's capture icon (spec 001 §2): capture an area of the open file into the draft. No icon without it. */
  onCapture?: () => void;
};

export const DEFAULT_RESUME_PROMPTS = [
  "Review my resume and suggest improvements",
  "Rewrite my professional summary to be more impactful",
  "Which skills should I highlight for a software engineer role?",
  "Make my work experience bullet points more results-oriented",
  "Check my resume for spelling and grammar mistakes",
];

export function ChatPanel(props: ChatPanelProps) {
  const {
    workspaceId,
    workspaceType = "Conversation",
    documents,
    hasDocuments = documents.length > 0,
    conversations = [],
    conversationId,
    onConversationChange,
    onConversationUpdated,
    onOpenCitation,
    pendingInsert,
    onPendingInsertConsumed,
    readOnly = false,
    variant = "panel",
    showHeader = true,
    onClose,
  } = props;
  const csrfToken = useCsrfToken();
  const toast = useToast();
  const [storedSettings, updateStoredSettings] = useChatSettings();
  const settings = props.settings ?? storedSettings;
  const updateSettings = props.onSettingsChange ?? updateStoredSettings;
  const isResume = workspaceType === "Resume Builder";

  const savedId = conversationId && conversationId !== NEW_CHAT_ID ? conversationId : null;
  const [view, dispatch] = useReducer(conversationReducer, savedId, openConversation);
  const { activeId, messages, loadedTitle, loading, creating, error, suggested } = view;
  const [draft, setDraft] = useState("");
  const [selectedText, setSelectedText] = useState<string | null>(null);
  const [images, setImages] = useState<string[]>([]);
  const [supportOpen, setSupportOpen] = useState(false);
  const [supportTab, setSupportTab] = useState<SupportTab>("help");
  const [minimized, setMinimized] = useState(false);
  // On a phone the sheet covers the viewer: a citation click minimises it so the highlighted page shows.
  const openCitation = (citation: ChatCitation) => {
    if (variant === "sheet") setMinimized(true);
    onOpenCitation(citation);
  };
  const [historyOpen, setHistoryOpen] = useState(false);
  const versions = useVersionIndex();
  const resumeChat = useResumeChat(isResume, savedId, csrfToken);

  const rootRef = useRef<HTMLDivElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  /** The id this panel just created: the screen echoes it back, which must not reload (and wipe) the live chat. */
  const createdRef = useRef<string | null>(null);

  // ---- the conversation shown ----------------------------------------------------------------
  useEffect(() => {
    if (savedId && savedId === createdRef.current) return;
    abortRef.current?.abort();
    // A load cut short by switching chats must not leave the panel "loading".
    dispatch({ type: "opened", conversationId: savedId });
    if (!savedId) return;
    const controller = new AbortController();
    loadConversation(savedId, controller.signal)
      .then((c) => dispatch({ type: "loaded", messages: c.messages, title: c.title }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) dispatch({ type: "failed", error: failure(e, "GET_CONVERSATION_FAILURE", "The chat could not be loaded.") });
      })
      .finally(() => !controller.signal.aborted && dispatch({ type: "loadSettled" }));
    loadOverview(savedId, controller.signal).then(
      (o) => dispatch({ type: "suggested", questions: o.questions }),
      () => undefined,
    );
    return () => controller.abort();
  }, [savedId]);

  useEffect(() => () => abortRef.current?.abort(), []);

  // Keep the newest text in view while the reader is at the bottom.
  const stickRef = useRef(true);
  useLayoutEffect(() => {
    const el = logRef.current;
    if (!el) return;
    if (messages.length === 0) el.scrollTop = 0;
    else if (stickRef.current) el.scrollTop = el.scrollHeight;
  }, [messages, creating, error]);

  // ---- layout: width/side of the panel, height of the sheet (applied to the screen's container) ----
  useChatLayout(rootRef, variant, settings, minimized);

  // ---- sending --------------------------------------------------------------------------------
  const runStream = useCallback(
    async (
      conversation: string,
      body: { text: string; selected_text: string | null; media_ids: string[]; regenerate_question_id: string | null; suggested?: boolean },
      botLocalId: string,
      userLocalId: string | null,
    ) => {
      const controller = new AbortController();
      abortRef.current = controller;
      try {
        const outcome = await streamAnswer(
          conversation,
          { ...body, language: settings.responseLanguage },
          csrfToken,
          (text) => dispatch({ type: "streamed", answerId: botLocalId, text }),
          controller.signal,
        );
        if (outcome.kind === "complete") {
          dispatch({ type: "answered", answerId: botLocalId, questionId: userLocalId, text: outcome.text, metadata: outcome.metadata });
          onConversationUpdated?.();
          loadConversation(conversation).then(
            (c) => dispatch({ type: "titleLoaded", title: c.title }),
            () => undefined,
          );
        } else if (outcome.kind === "failed") {
          dispatch({ type: "interrupted", answerId: botLocalId, text: outcome.text, error: { code: outcome.code, message: outcome.message } });
        } else {
          dispatch({ type: "interrupted", answerId: botLocalId, text: outcome.text });
        }
      } catch (e) {
        if (controller.signal.aborted) return;
        if (e instanceof ChatApiError) {
          // Refused before the first byte: nothing was answered.
          dispatch({ type: "refused", messageIds: userLocalId ? [botLocalId, userLocalId] : [botLocalId], error: { code: e.code, message: e.message } });
          return { refused: true };
        }
        dispatch({ type: "interrupted", answerId: botLocalId });
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        dispatch({ type: "sendSettled" });
      }
      return { refused: false };
    },
    [csrfToken, settings.responseLanguage, onConversationUpdated],
  );

  const send = useCallback(
    async (input: { text: string; selectedText: string | null; images: string[]; suggested?: boolean }) => {
      const text = input.text.trim();
      // While the chat loads, its messages would replace the new question: wait for it.
      if (!text || creating || readOnly || loading) return;
      if (!hasDocuments) {
        toast.push({ type: "info", message: "Please add files to chat" });
        return;
      }
      dispatch({ type: "sending" });
      let conversation = activeId;
      if (!conversation) {
        try {
          conversation = await createConversation(workspaceId, csrfToken);
        } catch (e) {
          dispatch({ type: "failed", error: failure(e, "CONVERSATION_CREATION_FAILURE", "The chat could not be created.") });
          return;
        }
        createdRef.current = conversation;
        dispatch({ type: "created", conversationId: conversation });
        onConversationChange(conversation);
      }
      // Images go up first: a question must not be asked about an image the server does not have.
      let mediaIds: string[];
      try {
        mediaIds = await Promise.all(input.images.map((image) => attachImage(conversation, image, csrfToken)));
      } catch (e) {
        dispatch({ type: "failed", error: failure(e, "MESSAGE_CREATION_FAILURE", "The image could not be attached.") });
        return;
      }
      const attached = mediaIds.map((mediaId) => chatImageUrl(conversation, mediaId));
      const userId = localId("u");
      const botId = localId("b");
      const now = new Date().toISOString();
      dispatch({ type: "appended", messages: [localQuestion(userId, text, input.selectedText, attached, now), pendingAnswer(botId, userId, now)] });
      setDraft("");
      setSelectedText(null);
      setImages([]);
      stickRef.current = true;
      const result = await runStream(conversation, { text, selected_text: input.selectedText, media_ids: mediaIds, regenerate_question_id: null, suggested: input.suggested ?? false }, botId, userId);
      if (result?.refused) {
        setDraft((d) => d || text);
        setSelectedText((s) => s ?? input.selectedText);
        setImages((list) => (list.length > 0 ? list : input.images));
      }
    },
    [activeId, creating, readOnly, loading, hasDocuments, toast, workspaceId, csrfToken, onConversationChange, runStream],
  );

  const regenerate = useCallback(
    async (questionId: string) => {
      if (!activeId || creating || readOnly || questionId.startsWith("local-")) return;
      dispatch({ type: "sending" });
      const botId = localId("b");
      dispatch({ type: "appended", messages: [pendingAnswer(botId, questionId, new Date().toISOString())] });
      versions.latest(questionId);
      await runStream(activeId, { text: "", selected_text: null, media_ids: [], regenerate_question_id: questionId }, botId, null);
    },
    [activeId, creating, readOnly, runStream, versions],
  );

  const rate = useCallback(
    async (message: ChatMessage, rating: "false" | null) => {
      if (!activeId) return;
      dispatch({ type: "rated", messageId: message.id, rating });
      try {
        await rateMessage(activeId, message.id, rating, csrfToken);
      } catch (e) {
        dispatch({ type: "rated", messageId: message.id, rating: message.rating });
        toast.push({ type: "error", message: e instanceof Error ? e.message : "The rating could not be saved." });
      }
    },
    [activeId, csrfToken, toast],
  );

  // ---- inserts from the document viewer's selection tip ----------------------------------------
  const sendRef = useRef(send);
  sendRef.current = send;
  useResumeFixRequests(isResume, (text) => void sendRef.current({ text, selectedText: null, images: [] }));
  useEffect(() => {
    if (!pendingInsert) return;
    const content = pendingInsert.content;
    onPendingInsertConsumed?.();
    if (pendingInsert.type === "image") {
      setImages((list) => (list.length >= 5 ? list : [...list, content]));
      textareaRef.current?.focus();
      return;
    }
    if (pendingInsert.type === "text") {
      setSelectedText(content.trim());
      textareaRef.current?.focus();
      return;
    }
    const stripped = stripTrailingQuestionMarks(content);
    if (!stripped) return;
    const text = pendingInsert.type === "explain" ? `Explain "${stripped}"?` : `${stripped}?`;
    if (pendingInsert.autoSend) void sendRef.current({ text, selectedText: null, images: [] });
    else {
      setDraft(text);
      textareaRef.current?.focus();
    }
  }, [pendingInsert, onPendingInsertConsumed]);

  // ---- rendering ------------------------------------------------------------------------------
  const turns = useMemo(() => toTurns(messages), [messages]);
  const title = props.title || loadedTitle || "New Chat";
  // A Resume Builder chat offers the spec's 5 resume prompts only: questions about the CV's passages do not edit a resume.
  // Otherwise the server's, which offers only what the workspace's model can answer (issue 44 item 2).
  const prompts = isResume ? DEFAULT_RESUME_PROMPTS : suggested;
  const speechLang = speechTagFor(settings.responseLanguage);
  const pastChats = conversations.slice(0, 6);
  const openSettings = () => {
    setSupportTab("settings");
    setSupportOpen(true);
  };

  const support = (
    <ChatSupport
      open={supportOpen}
      onOpenChange={setSupportOpen}
      tab={supportTab}
      onTabChange={setSupportTab}
      conversationId={activeId}
      documents={documents}
      settings={settings}
      onSettingsChange={updateSettings}
      isResume={isResume}
      showPosition={variant === "panel"}
    />
  );

  return (
    <div
      ref={rootRef}
      className={`dc-chat dc-chat--${variant} dc-chat--font-${settings.fontSize.toLowerCase()}${minimized ? " is-minimized" : ""}`}
      data-testid="chat"
      data-conversation-id={activeId ?? NEW_CHAT_ID}
      data-font-size={settings.fontSize}
      data-side={settings.isChatOnLeft ? "left" : "right"}
    >
      <link rel="stylesheet" href={chatStyles} />
      {variant === "panel" ? <WidthHandle settings={settings} onChange={updateSettings} /> : null}

      {variant === "sheet" ? (
        <div className="dc-chat-sheetbar">
          <HeightHandle settings={settings} onChange={updateSettings} />
          <div className="dc-chat-sheetbar__actions">
            <Tooltip content="Past chats">
              <IconButton size="1" variant="ghost" color="gray" aria-label="Past chats" aria-expanded={historyOpen} onClick={() => setHistoryOpen((o) => !o)} data-testid="past-chats-toggle">
                <HistoryIcon size={16} />
              </IconButton>
            </Tooltip>
            <Tooltip content={minimized ? "Restore chat" : "Minimise chat"}>
              <IconButton size="1" variant="ghost" color="gray" aria-label={minimized ? "Restore chat" : "Minimise chat"} aria-expanded={!minimized} onClick={() => setMinimized((m) => !m)} data-testid="minimise-chat">
                <MinusIcon size={16} />
              </IconButton>
            </Tooltip>
          </div>
        </div>
      ) : null}

      {showHeader ? (
        <header className="dc-chat-header">
          <h2 className="dc-chat-header__title rt-Text rt-r-size-3 rt-r-weight-bold" title={title} data-testid="chat-panel-title">
            {title}
          </h2>
          {onClose ? (
            <Tooltip content="Close chat">
              <IconButton variant="ghost" color="gray" aria-label="Close chat" onClick={onClose}>
                <CloseIcon size={16} />
              </IconButton>
            </Tooltip>
          ) : null}
        </header>
      ) : null}

      {variant === "sheet" && historyOpen && !minimized ? (
        <nav className="dc-chat-history" aria-label="Past chats" data-testid="past-chats">
          {pastChats.length === 0 ? (
            <Text size="2" color="gray">
              No chats yet.
            </Text>
          ) : (
            <ul>
              {pastChats.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    aria-current={c.id === activeId ? "true" : undefined}
                    onClick={() => {
                      setHistoryOpen(false);
                      onConversationChange(c.id);
                    }}
                  >
                    {c.title || "New Chat"}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </nav>
      ) : null}

      <div
        ref={logRef}
        className="dc-chat-log"
        role="log"
        aria-live="polite"
        aria-label="Chat messages"
        aria-busy={loading}
        tabIndex={0}
        hidden={minimized}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickRef.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        }}
        data-testid="chat-log"
      >
        {loading ? (
          <p className="dc-chat-loading" role="status">
            Loading the chat…
          </p>
        ) : turns.length === 0 ? (
          <div className="dc-chat-empty" data-testid="chat-empty">
            <span className="dc-chat-empty__icon" aria-hidden="true">
              <SparkIcon size={22} />
            </span>
            <Text as="p" size="4" weight="bold">
              {isResume ? "Let's polish your resume" : "Ask your documents anything"}
            </Text>
            <Text as="p" size="2" color="gray">
              {!hasDocuments
                ? "This workspace has no files yet. Attach some, then ask away."
                : `Answers quote ${documents.length === 1 ? "your document" : `your ${documents.length} documents`} and link to the pages they come from.`}
            </Text>
            <ul className="dc-chat-prompts" aria-label="Suggested questions">
              {prompts.map((p) => (
                <li key={p}>
                  <button type="button" className="dc-chat-prompt" disabled={readOnly || creating} onClick={() => void send({ text: p, selectedText: null, images: [], suggested: true })} data-testid="suggested-question">
                    {p}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          turns.map((turn, turnIndex) => {
            const qid = turn.question?.id ?? turn.answers[0]?.questionId ?? turn.key;
            const index = versions.indexFor(qid, turn.answers.length);
            return (
              <div key={turn.key} className="dc-chat-turn">
                {turn.question ? <UserBubble message={turn.question} /> : null}
                {turn.answers.length > 0 ? (
                  <BotAnswer
                    versions={turn.answers}
                    index={index}
                    onSelectVersion={(i) => versions.choose(qid, i)}
                    documents={documents}
                    onOpenCitation={openCitation}
                    onRegenerate={() => void regenerate(qid)}
                    onRate={(m, r) => void rate(m, r)}
                    onOpenSettings={openSettings}
                    speechLang={speechLang}
                    canRegenerate={!readOnly && !creating && !qid.startsWith("local-") && Boolean(turn.question)}
                    regenerateHint={readOnly ? READ_ONLY_HINT : "Wait for the answer to finish"}
                  />
                ) : null}
                {resumeChat.extrasFor(turns, turnIndex, turn.answers[index] ?? turn.answers.at(-1), (text) => void send({ text, selectedText: null, images: [] }), readOnly || creating)}
              </div>
            );
          })
        )}
        {resumeChat.noticeList}
        {error ? (
          <Callout.Root color="red" role="alert" className="dc-chat-error" data-testid="chat-error" data-code={error.code}>
            <Callout.Text>{error.message}</Callout.Text>
            <button type="button" className="dc-chat-linkbtn" onClick={() => dispatch({ type: "errorDismissed" })}>
              Dismiss
            </button>
          </Callout.Root>
        ) : null}
      </div>

      {minimized ? null : (
        <ChatInput
          draft={draft}
          onDraftChange={setDraft}
          selectedText={selectedText}
          onClearSelectedText={() => setSelectedText(null)}
          images={images}
          onImagesChange={setImages}
          documents={documents}
          onSend={() => void send({ text: draft, selectedText, images })}
          creating={creating}
          loading={loading}
          readOnly={readOnly}
          support={support}
          textareaRef={textareaRef}
          onCapture={props.onCapture}
        />
      )}
    </div>
  );
}

/** An error the chat shows: the API's code and text, or the fallback when the call failed another way. */
const failure = (e: unknown, code: string, message: string): ChatError => ({ code: e instanceof ChatApiError ? e.code : code, message: e instanceof Error ? e.message : message });
