import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { copyText } from "#app/components/chat/clipboard";
import { useToast } from "#app/components/toast";
import type { SelectionAction } from "./types";

/** Spec 001 §9: selection debounce 250 ms. */
export const SELECTION_DEBOUNCE_MS = 250;
const GAP = 8;

/** The selected text and where it sits, relative to the viewer root (the tip places itself around it). */
export type TipState = { text: string; left: number; top: number; bottom: number };

/**
 * The selection tip's state: after the selection inside `scope` settles for
 * 250 ms, where to show the tip (relative to `anchor`). Escape clears the
 * selection and hides it.
 */
export function useSelectionTip(scope: RefObject<HTMLElement | null>, anchor: RefObject<HTMLElement | null>, enabled: boolean) {
  const [tip, setTip] = useState<TipState | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const measure = useCallback(() => {
    const root = scope.current;
    const host = anchor.current;
    const selection = typeof window === "undefined" ? null : window.getSelection();
    if (!enabled || !root || !host || !selection || selection.rangeCount === 0 || selection.isCollapsed) return setTip(null);
    const range = selection.getRangeAt(0);
    if (!root.contains(range.commonAncestorContainer)) return setTip(null);
    const text = selection.toString().replace(/\s+/g, " ").trim();
    if (!text) return setTip(null);
    const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
    const first = rects[0] ?? range.getBoundingClientRect();
    const last = rects[rects.length - 1] ?? first;
    const box = host.getBoundingClientRect();
    setTip({ text, left: first.left - box.left, top: first.top - box.top, bottom: last.bottom - box.top });
  }, [scope, anchor, enabled]);

  useEffect(() => {
    const onChange = () => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(measure, SELECTION_DEBOUNCE_MS);
    };
    document.addEventListener("selectionchange", onChange);
    return () => {
      document.removeEventListener("selectionchange", onChange);
      window.clearTimeout(timer.current);
    };
  }, [measure]);

  const clear = useCallback(() => {
    window.getSelection()?.removeAllRanges();
    window.clearTimeout(timer.current);
    setTip(null);
  }, []);

  useEffect(() => {
    if (!tip) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") clear();
    };
    // The tip follows its text while the pages scroll.
    const root = scope.current;
    const onScroll = () => measure();
    document.addEventListener("keydown", onKey);
    root?.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      document.removeEventListener("keydown", onKey);
      root?.removeEventListener("scroll", onScroll);
    };
  }, [tip, clear, measure, scope]);

  return { tip, clear };
}

const ACTIONS: { action: SelectionAction; label: string; needsChat: boolean }[] = [
  { action: "copy", label: "Copy Text", needsChat: false },
  { action: "insert", label: "Insert in Chat", needsChat: true },
  { action: "ask", label: "Ask Question", needsChat: true },
  { action: "explain", label: "Explain", needsChat: true },
];

export function SelectionTip({
  tip,
  chatOpen,
  onAction,
  onDone,
}: {
  tip: TipState;
  chatOpen: boolean;
  onAction: (action: SelectionAction, text: string) => void;
  onDone: () => void;
}) {
  const toast = useToast();
  const [copied, setCopied] = useState<"ok" | "fail" | null>(null);
  useEffect(() => setCopied(null), [tip.text]);
  // Above the selection when it fits, else below; kept inside the viewer.
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number; below: boolean } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const host = el?.offsetParent as HTMLElement | null;
    if (!el) return;
    const width = el.offsetWidth;
    const height = el.offsetHeight;
    const hostWidth = host?.clientWidth ?? width;
    const hostHeight = host?.clientHeight ?? Infinity;
    const below = tip.top - height - GAP < 48 && tip.bottom + height + GAP <= hostHeight;
    setPlace({
      left: Math.max(GAP, Math.min(tip.left, hostWidth - width - GAP)),
      top: below ? tip.bottom + GAP : Math.max(GAP, tip.top - height - GAP),
      below,
    });
  }, [tip]);

  const run = async (action: SelectionAction) => {
    if (action === "copy") {
      const ok = await copyText(tip.text);
      setCopied(ok ? "ok" : "fail");
      // Spec 001 §8: 'Text copied to clipboard' / 'No text copied'.
      toast.push(ok ? { type: "success", message: "Text copied to clipboard" } : { type: "error", message: "No text copied" });
      onAction("copy", tip.text);
      window.setTimeout(() => setCopied(null), 1500);
      return;
    }
    onAction(action, tip.text);
    onDone();
  };

  return (
    <div
      role="toolbar"
      aria-label="Selected text actions"
      ref={ref}
      className={`dc-viewer-tip${place?.below ? " is-below" : ""}`}
      style={place ? { left: place.left, top: place.top } : { left: GAP, top: 0, visibility: "hidden" }}
      data-testid="selection-tip"
      // Keep the selection while a button is pressed.
      onMouseDown={(e) => e.preventDefault()}
    >
      {ACTIONS.map(({ action, label, needsChat }) => {
        const disabled = needsChat && !chatOpen;
        return (
          <button
            key={action}
            type="button"
            className="dc-viewer-tip__btn"
            disabled={disabled}
            title={disabled ? `${label} (open the chat first)` : label}
            data-action={action}
            onClick={() => void run(action)}
          >
            {action === "copy" && copied ? (copied === "ok" ? "Copied" : "No text copied") : label}
          </button>
        );
      })}
    </div>
  );
}
