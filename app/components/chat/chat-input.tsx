import { Button, IconButton, Popover, Text, TextField } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useEffect, useId, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode } from "react";
import { useToast, useToastsClearOf } from "#app/components/toast";
import type { ChatDocument } from "./chat-api";
import { cutSelectedText } from "./chat-api";
import { CaptureIcon, CloseIcon, ImageIcon, LinkIcon, MicIcon, SendIcon, UploadIcon } from "#app/components/icons";
import { canRecord, useServerDictation } from "#app/components/speech/server-dictation";
import { useCsrfToken } from "#app/components/use-csrf";

export const TEXTAREA_MAX_PX = 100;
export const MAX_IMAGES = 5;
export const READ_ONLY_HINT = "An admin acting as this user cannot send messages.";
export const SPEECH_ERROR = "ERROR: Speech was cancelled or could not be recognized. Ensure your microphone is working properly.";

/** An image link the user may add: a data: URI of an image, or an https URL (spec 001 §5). */
export function isImageLink(link: string): boolean {
  const v = link.trim();
  return /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]+$/i.test(v) || /^https:\/\/[^\s]+$/i.test(v);
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

type SpeechRecognitionLike = {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  start: () => void;
  stop: () => void;
  abort: () => void;
  onstart: (() => void) | null;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
};
type SpeechRecognitionCtor = new () => SpeechRecognitionLike;
function speechRecognitionCtor(): SpeechRecognitionCtor | null {
  if (typeof window === "undefined") return null;
  const w = window as unknown as { SpeechRecognition?: SpeechRecognitionCtor; webkitSpeechRecognition?: SpeechRecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

type Props = {
  draft: string;
  onDraftChange: (text: string) => void;
  selectedText: string | null;
  onClearSelectedText: () => void;
  images: string[];
  onImagesChange: (images: string[]) => void;
  documents: ChatDocument[];
  onSend: () => void;
  creating: boolean;
  /** The chat's messages are still loading. */
  loading?: boolean;
  readOnly: boolean;
  support: ReactNode;
  textareaRef: React.RefObject<HTMLTextAreaElement>;
  /** The capture icon's action (spec 001 §2): capture an area of the open file; no icon without it. */
  onCapture?: () => void;
};

export function ChatInput({ draft, onDraftChange, selectedText, onClearSelectedText, images, onImagesChange, documents, onSend, creating, loading = false, readOnly, support, textareaRef, onCapture }: Props) {
  const toast = useToast();
  const listId = useId();
  const hintId = useId();
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [attachOpen, setAttachOpen] = useState(false);
  const [link, setLink] = useState("");
  const [linkError, setLinkError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [speechState, setSpeechState] = useState<"idle" | "loading" | "listening">("idle");
  const [speechError, setSpeechError] = useState<string | null>(null);
  const [speechSupported, setSpeechSupported] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  useToastsClearOf(container);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // The browser's recognition where it works; else (missing, or no service behind it: Chromium without Google's keys) the server's (decision 144).
  const [serverDictation, setServerDictation] = useState(false);
  const csrfToken = useCsrfToken();
  const dictation = useServerDictation(csrfToken, {
    state: setSpeechState,
    words: (said) => onDraftChange(draftRef.current.trim() ? `${draftRef.current.trim()} ${said}` : said),
    failed: () => setSpeechError(SPEECH_ERROR),
  });
  const draftRef = useRef(draft);
  draftRef.current = draft;
  useEffect(() => {
    const recognises = speechRecognitionCtor() !== null;
    setServerDictation(!recognises && canRecord());
    setSpeechSupported(recognises || canRecord());
  }, []);
  useEffect(() => () => recognition.current?.abort(), []);

  // Grow with the text up to 100 px, then scroll (spec 001 §9).
  useLayoutEffect(() => {
    const el = textareaRef.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, TEXTAREA_MAX_PX)}px`;
    el.style.overflowY = el.scrollHeight > TEXTAREA_MAX_PX ? "auto" : "hidden";
  }, [draft, textareaRef]);

  const matches = mention ? documents.filter((d) => d.documentName.toLowerCase().includes(mention.query.toLowerCase())).slice(0, 8) : [];
  const mentionOpen = mention !== null && matches.length > 0;
  const blank = draft.trim() === "";
  const sendDisabled = blank || creating || loading || readOnly;

  const updateMention = (value: string, caret: number) => {
    const before = value.slice(0, caret);
    const m = /(^|\s)@([^\s@]{0,60})$/.exec(before);
    if (m) {
      setMention({ start: caret - m[2].length - 1, query: m[2] });
      setActive(0);
    } else setMention(null);
  };

  const insertMention = (doc: ChatDocument) => {
    if (!mention) return;
    const el = textareaRef.current;
    const caret = el?.selectionStart ?? draft.length;
    const next = `${draft.slice(0, mention.start)}@${doc.documentName} ${draft.slice(caret)}`;
    onDraftChange(next);
    setMention(null);
    const pos = mention.start + doc.documentName.length + 2;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(pos, pos);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentionOpen) {
      if (event.key === "ArrowDown") {
        event.preventDefault();
        setActive((a) => (a + 1) % matches.length);
        return;
      }
      if (event.key === "ArrowUp") {
        event.preventDefault();
        setActive((a) => (a - 1 + matches.length) % matches.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        insertMention(matches[active]);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!sendDisabled) onSend();
    }
  };

  const addImages = async (files: File[]) => {
    const pictures = files.filter((f) => f.type.startsWith("image/"));
    if (pictures.length < files.length) toast.push({ type: "error", message: "Only image files can be attached." });
    if (pictures.length === 0) return;
    const room = MAX_IMAGES - images.length;
    if (room <= 0) {
      toast.push({ type: "info", message: `You can attach up to ${MAX_IMAGES} images.` });
      return;
    }
    const urls = await Promise.all(pictures.slice(0, room).map(readAsDataUrl));
    onImagesChange([...images, ...urls]);
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length === 0) return;
    event.preventDefault();
    void addImages(files);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    void addImages(Array.from(event.dataTransfer.files));
  };

  const addLink = () => {
    if (!isImageLink(link)) {
      setLinkError("Enter an image link: an https:// address or a data:image URI.");
      return;
    }
    if (images.length >= MAX_IMAGES) {
      setLinkError(`You can attach up to ${MAX_IMAGES} images.`);
      return;
    }
    onImagesChange([...images, link.trim()]);
    setLink("");
    setLinkError(null);
    setAttachOpen(false);
  };

  const toggleMic = () => {
    if (speechState !== "idle") {
      recognition.current?.stop();
      dictation.stop();
      return;
    }
    setSpeechError(null);
    if (serverDictation) {
      void dictation.start();
      return;
    }
    const Ctor = speechRecognitionCtor();
    if (!Ctor) return;
    setSpeechError(null);
    const r = new Ctor();
    recognition.current = r;
    r.lang = "en-US";
    r.interimResults = false;
    r.continuous = false;
    r.onstart = () => setSpeechState("listening");
    r.onresult = (e) => {
      const said = Array.from(e.results)
        .map((alt) => alt[0]?.transcript ?? "")
        .join(" ")
        .trim();
      if (said) onDraftChange(draft.trim() ? `${draft.trim()} ${said}` : said);
    };
    r.onerror = (e) => {
      // No recognition service behind the API, none allowed, or it cannot capture (Chromium without Google's service):
      // dictate through the server from now on.
      if ((e.error === "network" || e.error === "service-not-allowed" || e.error === "audio-capture") && canRecord()) {
        setServerDictation(true);
        recognition.current = null;
        void dictation.start();
        return;
      }
      setSpeechError(SPEECH_ERROR);
    };
    r.onend = () => {
      // Handed over to the server's dictation (onerror): that owns the state now.
      if (recognition.current !== r) return;
      recognition.current = null;
      setSpeechState("idle");
    };
    setSpeechState("loading");
    try {
      r.start();
    } catch {
      setSpeechError(SPEECH_ERROR);
      setSpeechState("idle");
    }
  };

  return (
    <div
      ref={container}
      className={`dc-chat-input${dragging ? " is-dragging" : ""}`}
      onDragOver={(e) => {
        if (Array.from(e.dataTransfer.types).includes("Files")) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="chat-input"
    >
      {selectedText ? (
        <div className="dc-chat-draftquote" data-testid="draft-selected-text">
          <blockquote title={selectedText}>{cutSelectedText(selectedText)}</blockquote>
          <IconButton size="1" variant="ghost" color="gray" aria-label="Remove selected text" onClick={onClearSelectedText}>
            <CloseIcon size={12} />
          </IconButton>
        </div>
      ) : null}
      {images.length > 0 ? (
        <div className="dc-chat-draftimages" data-testid="draft-images">
          <ul className="dc-chat-thumbs">
            {images.map((src, i) => (
              <li key={`${i}-${src.slice(0, 40)}`} className="dc-chat-thumbwrap">
                {src.startsWith("data:") ? (
                  <img src={src} alt={`Image ${i + 1} to send`} className="dc-chat-thumb" data-testid="draft-image" />
                ) : (
                  <span className="dc-chat-thumb dc-chat-thumb--link" title={src} data-testid="draft-image">
                    <LinkIcon size={14} />
                    <span>{safeHost(src)}</span>
                  </span>
                )}
                <button type="button" className="dc-chat-thumb__remove" aria-label={`Remove image ${i + 1}`} onClick={() => onImagesChange(images.filter((_, j) => j !== i))}>
                  <CloseIcon size={10} />
                </button>
              </li>
            ))}
          </ul>
          <Text size="1" color="gray" as="p">
            Images go to the workspace's image model; the built-in model reads only your documents' text, not pictures.
          </Text>
        </div>
      ) : null}

      {mentionOpen ? (
        <ul className="dc-chat-mentions" id={listId} role="listbox" aria-label="Workspace documents" data-testid="mention-list">
          {matches.map((d, i) => (
            <li
              key={d.documentId}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? "is-active" : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                insertMention(d);
              }}
            >
              {d.documentName}
            </li>
          ))}
        </ul>
      ) : null}

      <div className="dc-chat-input__box">
        <label htmlFor={`${listId}-ta`} className="dc-visually-hidden">
          Ask a question about your documents
        </label>
        <textarea
          id={`${listId}-ta`}
          ref={textareaRef}
          rows={1}
          value={draft}
          placeholder={readOnly ? "Read-only: viewing as this user" : "Ask anything… (type @ to mention a document)"}
          // An admin acting as this user cannot send, so typing is refused too, and the note below says why (issue 34).
          readOnly={readOnly}
          onChange={(e) => {
            onDraftChange(e.target.value);
            updateMention(e.target.value, e.target.selectionStart ?? e.target.value.length);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => setMention(null)}
          aria-describedby={readOnly ? `${hintId} ${hintId}-ro` : hintId}
          aria-activedescendant={mentionOpen ? `${listId}-${active}` : undefined}
          aria-controls={mentionOpen ? listId : undefined}
          aria-autocomplete="list"
          data-testid="chat-textarea"
          maxLength={8000}
        />
        <span id={hintId} className="dc-visually-hidden">
          Enter sends, Shift and Enter adds a new line.
        </span>
      </div>
      {readOnly ? (
        <Text as="p" size="1" color="amber" highContrast id={`${hintId}-ro`} className="dc-chat-readonly" data-testid="read-only-note">
          {READ_ONLY_HINT}
        </Text>
      ) : null}

      <div className="dc-chat-input__bar">
        <Popover.Root open={attachOpen} onOpenChange={setAttachOpen}>
          <Tooltip content={selectedText ? "Remove the selected text to attach images" : "Attach image"}>
            <Popover.Trigger disabled={Boolean(selectedText)}>
              <IconButton variant="ghost" color="gray" aria-label="Attach image" data-testid="attach-image">
                <ImageIcon size={18} />
              </IconButton>
            </Popover.Trigger>
          </Tooltip>
          <Popover.Content width="300px" align="start" side="top" aria-label="Attach image">
            <div className="dc-chat-attach">
              <Button variant="soft" onClick={() => fileInput.current?.click()} data-testid="upload-from-device">
                <UploadIcon size={16} /> Upload from Device
              </Button>
              <input
                ref={fileInput}
                type="file"
                accept="image/*"
                multiple
                hidden
                data-testid="image-file-input"
                onChange={(e) => {
                  void addImages(Array.from(e.target.files ?? []));
                  e.target.value = "";
                  setAttachOpen(false);
                }}
              />
              <Text as="label" size="2" weight="medium" htmlFor={`${listId}-link`}>
                Add Link of Image
              </Text>
              <div className="dc-chat-attach__row">
                <TextField.Root
                  id={`${listId}-link`}
                  placeholder="https://… or data:image/…"
                  value={link}
                  onChange={(e) => {
                    setLink(e.target.value);
                    setLinkError(null);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && link.trim()) {
                      e.preventDefault();
                      addLink();
                    }
                  }}
                  style={{ flex: 1 }}
                />
                <Button onClick={addLink} disabled={!link.trim()} data-testid="add-image-link">
                  Add
                </Button>
              </div>
              {linkError ? (
                <Text size="1" color="red" role="alert">
                  {linkError}
                </Text>
              ) : null}
            </div>
          </Popover.Content>
        </Popover.Root>
        {onCapture ? (
          <Tooltip content="Capture an area of the open file">
            <IconButton variant="ghost" color="gray" aria-label="Capture an area of the open file" onClick={onCapture} disabled={readOnly} data-testid="chat-capture">
              <CaptureIcon size={18} />
            </IconButton>
          </Tooltip>
        ) : null}
        {support}
        <span className="dc-chat-input__spacer" />
        {speechSupported ? (
          <Tooltip content={speechState === "idle" ? "Speak your question" : "Stop listening"}>
            <IconButton
              variant={speechState === "idle" ? "ghost" : "soft"}
              color={speechState === "listening" ? "red" : "gray"}
              aria-label={speechState === "idle" ? "Speak your question" : speechState === "loading" ? "Starting the microphone" : "Stop listening"}
              aria-pressed={speechState !== "idle"}
              onClick={toggleMic}
              disabled={readOnly}
              data-testid="mic"
              data-state={speechState}
            >
              {speechState === "loading" ? <span className="dc-chat-spinner" aria-hidden="true" /> : <MicIcon size={18} />}
            </IconButton>
          </Tooltip>
        ) : null}
        <Tooltip content={readOnly ? READ_ONLY_HINT : loading ? "Loading the chat…" : creating ? "Wait for the answer to finish" : blank ? "Type a question first" : "Send (Enter)"}>
          {/* A wrapper keeps the tooltip working while the button is disabled. */}
          <span tabIndex={readOnly ? 0 : undefined} className="dc-chat-send-wrap" data-testid="send-wrap">
            <IconButton aria-label="Send" aria-describedby={readOnly ? `${hintId}-ro` : undefined} disabled={sendDisabled} onClick={onSend} data-testid="send">
              <SendIcon size={18} />
            </IconButton>
          </span>
        </Tooltip>
      </div>
      {speechError ? (
        <p className="dc-chat-speech-error" role="alert" data-testid="speech-error">
          {speechError}
        </p>
      ) : null}
    </div>
  );
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "image link";
  }
}
