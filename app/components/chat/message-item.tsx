import { IconButton } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useState } from "react";
import { useToast } from "#app/components/toast";
import type { ChatCitation, ChatDocument, ChatMessage } from "./chat-api";
import { cutSelectedText, visibleCitations } from "./chat-api";
import { ChevronLeftIcon, ChevronRightIcon, CopyIcon, DocIcon, GearIcon, RegenerateIcon, SpeakerIcon, StopIcon, ThumbDownIcon } from "#app/components/icons";
import { copyText } from "./clipboard";
import { splitFixRequest } from "#domain/resume/latex-blocks";
import { SafeMarkdown } from "./markdown";
import { useReadAloud } from "./read-aloud";

/** The offline extractive model's id on a message: its answers say what it is (decision 192). */
const OFFLINE_MODEL_ID = "docuchat-extractive";

export function UserBubble({ message }: { message: ChatMessage }) {
  // Retry sends the error, hints and source along; the bubble shows the request and keeps the rest folded.
  const fix = splitFixRequest(message.text);
  return (
    <div className="dc-chat-msg dc-chat-msg--user" data-testid="user-message">
      <div className="dc-chat-bubble">
        {message.selectedText ? (
          <blockquote className="dc-chat-quote" title={message.selectedText} data-testid="selected-text">
            {cutSelectedText(message.selectedText)}
          </blockquote>
        ) : null}
        {message.images && message.images.length > 0 ? (
          <div className="dc-chat-thumbs">
            {message.images.map((src, i) => (
              <img key={i} src={src} alt={`Attached image ${i + 1}`} className="dc-chat-thumb" />
            ))}
          </div>
        ) : null}
        {fix ? (
          <>
            <p className="dc-chat-bubble__text">{fix.request}</p>
            <details className="dc-chat-bubble__details" data-testid="fix-request-details">
              <summary>The error and hints sent with it</summary>
              <pre>{fix.details}</pre>
            </details>
          </>
        ) : (
          <p className="dc-chat-bubble__text">{message.text}</p>
        )}
      </div>
    </div>
  );
}

type BotAnswerProps = {
  versions: ChatMessage[];
  index: number;
  onSelectVersion: (index: number) => void;
  documents: ChatDocument[];
  onOpenCitation: (c: ChatCitation) => void;
  onRegenerate: () => void;
  onRate: (message: ChatMessage, rating: "false" | null) => void;
  onOpenSettings: () => void;
  speechLang: string;
  canRegenerate: boolean;
  regenerateHint: string;
};

export function BotAnswer({ versions, index, onSelectVersion, documents, onOpenCitation, onRegenerate, onRate, onOpenSettings, speechLang, canRegenerate, regenerateHint }: BotAnswerProps) {
  const message = versions[index] ?? versions[versions.length - 1];
  const toast = useToast();
  const speech = useReadAloud(speechLang);
  const finished = message.status !== "streaming";
  const waiting = message.status === "streaming" && message.text === "";
  const citations = finished ? visibleCitations(message.citations, documents) : [];
  const disliked = message.rating === "false";
  const saved = !message.id.startsWith("local-");

  const copy = async () => {
    const ok = await copyText(message.text);
    toast.push(ok ? { type: "success", message: "Text copied to clipboard" } : { type: "error", message: "No text copied" });
  };

  return (
    <div
      className="dc-chat-msg dc-chat-msg--bot"
      data-testid="bot-message"
      data-status={message.status}
      data-message-id={message.id}
      aria-busy={message.status === "streaming"}
    >
      <div className="dc-chat-avatar" aria-hidden="true">
        AI
      </div>
      <div className="dc-chat-answer">
        {waiting ? (
          <div className="dc-chat-typing" role="status" aria-label="The assistant is typing" data-testid="typing-indicator">
            <span />
            <span />
            <span />
          </div>
        ) : (
          <div className={message.status === "streaming" ? "dc-chat-answer__body is-streaming" : "dc-chat-answer__body"} data-testid="answer-text">
            <SafeMarkdown text={message.text} final={finished} />
          </div>
        )}

        {message.status === "interrupted" ? (
          <div className="dc-chat-interrupted" role="note" data-testid="interrupted">
            <span>This answer was interrupted.</span>
            <button type="button" className="dc-chat-linkbtn" onClick={onRegenerate} disabled={!canRegenerate}>
              Regenerate
            </button>
          </div>
        ) : null}

        {citations.length > 0 ? (
          <ul className="dc-chat-citations" aria-label="Sources">
            {citations.map((c) => (
              <li key={`${c.documentId}#${c.pageNumber}`}>
                <button
                  type="button"
                  className="dc-chat-chip"
                  onClick={() => onOpenCitation({ documentId: c.documentId, pageNumber: c.pageNumber, quote: c.quote })}
                  title={`Open ${c.name} at page ${c.pageNumber}`}
                  aria-label={`Open ${c.name}, page ${c.pageNumber}`}
                  data-testid="citation-chip"
                  data-document-id={c.documentId}
                  data-page={c.pageNumber}
                >
                  <DocIcon size={13} className="dc-chat-chip__icon" />
                  {c.label} · p.{c.pageNumber}
                </button>
              </li>
            ))}
          </ul>
        ) : null}

        {message.status === "complete" && message.model === OFFLINE_MODEL_ID ? (
          <p className="dc-chat-offline-note" data-testid="offline-note">
            Quoted from your documents by the offline model. <a href="/profile/chat-settings">Add your key</a> or ask your admin for a model.
          </p>
        ) : null}

        {finished ? (
          <div className="dc-chat-actions" data-testid="message-actions">
            {versions.length > 1 ? (
              <div className="dc-chat-versions" role="group" aria-label="Answer versions">
                <IconButton size="1" variant="ghost" color="gray" aria-label="Previous version" disabled={index === 0} onClick={() => onSelectVersion(index - 1)}>
                  <ChevronLeftIcon size={14} />
                </IconButton>
                <span className="dc-chat-versions__count" data-testid="version-counter" aria-live="polite">
                  {index + 1} / {versions.length}
                </span>
                <IconButton size="1" variant="ghost" color="gray" aria-label="Next version" disabled={index === versions.length - 1} onClick={() => onSelectVersion(index + 1)}>
                  <ChevronRightIcon size={14} />
                </IconButton>
              </div>
            ) : null}
            {message.status === "complete" ? (
              <>
                <Tooltip content="Copy">
                  <IconButton size="1" variant="ghost" color="gray" aria-label="Copy" onClick={copy} data-testid="copy-answer">
                    <CopyIcon size={15} />
                  </IconButton>
                </Tooltip>
                <Tooltip content={disliked ? "Remove Dislike" : "Dislike"}>
                  <IconButton
                    size="1"
                    variant={disliked ? "soft" : "ghost"}
                    color={disliked ? "red" : "gray"}
                    aria-label={disliked ? "Remove Dislike" : "Dislike"}
                    aria-pressed={disliked}
                    disabled={!saved}
                    onClick={() => onRate(message, disliked ? null : "false")}
                    data-testid="dislike"
                  >
                    <ThumbDownIcon size={15} filled={disliked} />
                  </IconButton>
                </Tooltip>
                <Tooltip content={speech.state === "idle" ? "Read aloud" : "Stop reading"}>
                  <IconButton
                    size="1"
                    variant={speech.state === "idle" ? "ghost" : "soft"}
                    color="gray"
                    aria-label={speech.state === "idle" ? "Read aloud" : speech.state === "loading" ? "Preparing speech, stop" : "Stop reading"}
                    onClick={() => (speech.state === "idle" ? speech.play(message.text) : speech.stop())}
                    data-testid="read-aloud"
                    data-state={speech.state}
                  >
                    {speech.state === "idle" ? <SpeakerIcon size={15} /> : speech.state === "loading" ? <span className="dc-chat-spinner" aria-hidden="true" /> : <StopIcon size={15} />}
                  </IconButton>
                </Tooltip>
              </>
            ) : null}
            <Tooltip content={canRegenerate ? "Regenerate" : regenerateHint}>
              <IconButton size="1" variant="ghost" color="gray" aria-label="Regenerate" disabled={!canRegenerate} onClick={onRegenerate} data-testid="regenerate">
                <RegenerateIcon size={15} />
              </IconButton>
            </Tooltip>
            <Tooltip content="Chat settings">
              <IconButton size="1" variant="ghost" color="gray" aria-label="Chat settings" onClick={onOpenSettings}>
                <GearIcon size={15} />
              </IconButton>
            </Tooltip>
            {message.model ? <span className="dc-chat-model">{message.model}</span> : null}
          </div>
        ) : null}
        {speech.error ? (
          <p className="dc-chat-speech-error" role="alert">
            {speech.error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Answer versions of one question, oldest first, with the index shown by default (the newest). */
export function useVersionIndex() {
  const [chosen, setChosen] = useState<Record<string, number>>({});
  return {
    indexFor: (questionId: string, total: number) => {
      const i = chosen[questionId];
      return i === undefined || i >= total ? total - 1 : i;
    },
    choose: (questionId: string, index: number) => setChosen((c) => ({ ...c, [questionId]: index })),
    latest: (questionId: string) =>
      setChosen((c) => {
        const next = { ...c };
        delete next[questionId];
        return next;
      }),
  };
}
