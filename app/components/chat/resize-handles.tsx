import type { KeyboardEvent, PointerEvent } from "react";
import { CHAT_WIDTH, SHEET_HEIGHT, type ChatSettings } from "./chat-settings";

/** Drag (or arrow keys) to set the chat's width: 47–90 % of the screen (spec 001 §9). */
export function WidthHandle({ settings, onChange }: { settings: ChatSettings; onChange: (patch: Partial<ChatSettings>) => void }) {
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    followPointer(event, (e) => {
      const x = settings.isChatOnLeft ? e.clientX : window.innerWidth - e.clientX;
      const pct = Math.round((x / window.innerWidth) * 100);
      onChange({ chatbotWidth: Math.min(CHAT_WIDTH.max, Math.max(CHAT_WIDTH.min, pct)) });
    }, "dc-chat-resizing");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const grow = settings.isChatOnLeft ? "ArrowRight" : "ArrowLeft";
    const shrink = settings.isChatOnLeft ? "ArrowLeft" : "ArrowRight";
    const step = event.shiftKey ? 10 : 2;
    let next: number | null = null;
    if (event.key === grow) next = settings.chatbotWidth + step;
    else if (event.key === shrink) next = settings.chatbotWidth - step;
    else if (event.key === "Home") next = CHAT_WIDTH.min;
    else if (event.key === "End") next = CHAT_WIDTH.max;
    if (next === null) return;
    event.preventDefault();
    onChange({ chatbotWidth: Math.min(CHAT_WIDTH.max, Math.max(CHAT_WIDTH.min, next)) });
  };
  return (
    <div
      className="dc-chat-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize chat"
      aria-valuemin={CHAT_WIDTH.min}
      aria-valuemax={CHAT_WIDTH.max}
      aria-valuenow={settings.chatbotWidth}
      aria-valuetext={`${settings.chatbotWidth}% of the screen`}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      data-testid="chat-resize"
    />
  );
}

/** Drag (or arrow keys) to set the bottom sheet's height: 25–80 vh (spec 001 §9). */
export function HeightHandle({ settings, onChange }: { settings: ChatSettings; onChange: (patch: Partial<ChatSettings>) => void }) {
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    followPointer(event, (e) => {
      const vh = Math.round(((window.innerHeight - e.clientY) / window.innerHeight) * 100);
      onChange({ sheetHeight: Math.min(SHEET_HEIGHT.max, Math.max(SHEET_HEIGHT.min, vh)) });
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = event.key === "ArrowUp" ? settings.sheetHeight + 5 : event.key === "ArrowDown" ? settings.sheetHeight - 5 : null;
    if (next === null) return;
    event.preventDefault();
    onChange({ sheetHeight: Math.min(SHEET_HEIGHT.max, Math.max(SHEET_HEIGHT.min, next)) });
  };
  return (
    <div
      className="dc-chat-grab"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize chat sheet"
      aria-valuemin={SHEET_HEIGHT.min}
      aria-valuemax={SHEET_HEIGHT.max}
      aria-valuenow={settings.sheetHeight}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      data-testid="sheet-resize"
    >
      <span aria-hidden="true" />
    </div>
  );
}

/**
 * Follows the pointer that pressed a handle until it is released, calling
 * `move` on every step; `bodyClass` marks the page meanwhile (e.g. no text selection).
 */
function followPointer(event: PointerEvent<HTMLDivElement>, move: (e: globalThis.PointerEvent) => void, bodyClass?: string) {
  const handle = event.currentTarget;
  handle.setPointerCapture(event.pointerId);
  const up = () => {
    handle.removeEventListener("pointermove", move);
    handle.removeEventListener("pointerup", up);
    handle.removeEventListener("pointercancel", up);
    if (bodyClass) document.body.classList.remove(bodyClass);
  };
  if (bodyClass) document.body.classList.add(bodyClass);
  handle.addEventListener("pointermove", move);
  handle.addEventListener("pointerup", up);
  handle.addEventListener("pointercancel", up);
}
