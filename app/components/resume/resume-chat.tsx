import { Callout } from "@radix-ui/themes";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatMessage } from "#app/components/chat/chat-api";
import { extractLatexBlock, FIX_LATEX_REQUEST } from "#domain/resume/latex-blocks";
import { LatexAnswer } from "./latex-answer";
import { RESUME_FIX_REQUEST_EVENT, RESUME_UPDATED_EVENT, type CompileOutcome, type ResumeUpdated } from "./resume-api";

type Turn = { key: string; question: ChatMessage | null; answers: ChatMessage[] };

const isRetry = (turn: Turn | undefined) => Boolean(turn?.question?.text.startsWith(FIX_LATEX_REQUEST));

/**
 * The chat's side of the Resume Builder: LaTeX blocks of answers compiled
 * after the stream (with Retry), each Retry recorded, and the editor's save
 * outcome said in the chat ('The resume is updated successfully').
 */
export function useResumeChat(enabled: boolean, conversationId: string | null, csrfToken: string) {
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [notices, setNotices] = useState<(ResumeUpdated & { id: number })[]>([]);

  useEffect(() => {
    if (!enabled) return;
    const onUpdated = (event: Event) => {
      const detail = (event as CustomEvent<ResumeUpdated>).detail;
      setNotices((list) => [...list, { ...detail, id: Date.now() }]);
    };
    window.addEventListener(RESUME_UPDATED_EVENT, onUpdated);
    return () => window.removeEventListener(RESUME_UPDATED_EVENT, onUpdated);
  }, [enabled]);

  // Another chat has its own answers and notices.
  useEffect(() => {
    setErrors({});
    setNotices([]);
  }, [conversationId]);

  const compiled = useCallback(
    (turnKey: string, outcome: CompileOutcome, attempt: number, previousError: string | null, model: string | null, readOnly: boolean) => {
      setErrors((map) => ({ ...map, [turnKey]: outcome.ok ? null : outcome.error.message }));
      // A reader (an admin impersonating) only looks: the Retry's outcome is the user's to record.
      if (attempt === 0 || !conversationId || readOnly) return;
      void fetch(`/api/conversations/${encodeURIComponent(conversationId)}/repair_attempts`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken },
        body: JSON.stringify({ attempt, error: previousError ?? "", fixed: outcome.ok, model: model ?? "unknown" }),
      }).catch(() => undefined);
    },
    [conversationId, csrfToken],
  );

  /** The compiled preview (or error and Retry) under a turn's answer, when it holds a LaTeX block. */
  const extrasFor = (turns: Turn[], index: number, answer: ChatMessage | undefined, onRetry: (text: string) => void, readOnly: boolean) => {
    if (!enabled || !answer || answer.status !== "complete") return null;
    const latex = extractLatexBlock(answer.text);
    if (!latex) return null;
    const turn = turns[index]!;
    let attempt = 0;
    for (let i = index; i >= 0 && isRetry(turns[i]); i--) attempt++;
    const previousError = isRetry(turn) && index > 0 ? (errors[turns[index - 1]!.key] ?? null) : null;
    // The newest LaTeX answer compiles by itself; older ones when asked (a long chat would queue many compiles).
    const newest = !turns.slice(index + 1).some((later) => later.answers.some((a) => a.status === "complete" && extractLatexBlock(a.text)));
    return (
      <LatexAnswer
        key={`${turn.key}:${latex.length}`}
        latex={latex}
        attempt={attempt}
        previousError={previousError}
        onRetry={onRetry}
        onCompiled={(outcome) => compiled(turn.key, outcome, attempt, previousError, answer.model, readOnly)}
        readOnly={readOnly}
        compileAtOnce={newest}
      />
    );
  };

  const noticeList = enabled
    ? notices.map((notice) => (
        <Callout.Root
          key={notice.id}
          ref={(element: HTMLDivElement | null) => element?.scrollIntoView({ block: "nearest" })}
          color={notice.ok ? "green" : "red"}
          role={notice.ok ? "status" : "alert"}
          size="1"
          data-testid="resume-update-notice"
        >
          <Callout.Text>{notice.message}</Callout.Text>
        </Callout.Root>
      ))
    : null;

  return { extrasFor, noticeList };
}

/** The editor's Retry asks the chat: the message is sent like a typed question. */
export function useResumeFixRequests(enabled: boolean, send: (text: string) => void) {
  const sendRef = useRef(send);
  sendRef.current = send;
  useEffect(() => {
    if (!enabled) return;
    const onRequest = (event: Event) => {
      const text = (event as CustomEvent<string>).detail;
      // The screen may hold two chat panels (beside the documents, and the phone's sheet): one sends.
      event.stopImmediatePropagation();
      if (typeof text === "string" && text) sendRef.current(text);
    };
    window.addEventListener(RESUME_FIX_REQUEST_EVENT, onRequest);
    return () => window.removeEventListener(RESUME_FIX_REQUEST_EVENT, onRequest);
  }, [enabled]);
}
