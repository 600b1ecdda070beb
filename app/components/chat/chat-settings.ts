import { useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { CHAT_WIDTH, type ChatLayout, DEFAULT_CHAT_LAYOUT, FONT_SIZES, type FontSize, SHEET_HEIGHT } from "#domain/identity/chat-layout";
import { isLanguage } from "#domain/identity/languages";
import { useCsrfToken } from "#app/components/use-csrf";

/**
 * The chat layout and answer language (spec 001 §3 User settings), kept with
 * the account (PUT /api/chat-settings) so every browser shows the same chat.
 * The root loader brings the saved values, so the first paint is already right.
 */
export type ChatSettings = ChatLayout;
export type { FontSize };
export { CHAT_WIDTH, SHEET_HEIGHT };
export const DEFAULT_CHAT_SETTINGS = DEFAULT_CHAT_LAYOUT;

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(n)));

/** Keeps only valid values, clamped to the spec's ranges (drags produce fractions and overshoot). */
export function normalizeChatSettings(value: Partial<Record<keyof ChatSettings, unknown>> | null | undefined): ChatSettings {
  const v = value ?? {};
  const d = DEFAULT_CHAT_SETTINGS;
  return {
    fontSize: (FONT_SIZES as readonly unknown[]).includes(v.fontSize) ? (v.fontSize as FontSize) : d.fontSize,
    responseLanguage: typeof v.responseLanguage === "string" && isLanguage(v.responseLanguage) ? v.responseLanguage : d.responseLanguage,
    isChatOnLeft: v.isChatOnLeft === true,
    chatbotWidth: typeof v.chatbotWidth === "number" && Number.isFinite(v.chatbotWidth) ? clamp(v.chatbotWidth, CHAT_WIDTH.min, CHAT_WIDTH.max) : d.chatbotWidth,
    sheetHeight: typeof v.sheetHeight === "number" && Number.isFinite(v.sheetHeight) ? clamp(v.sheetHeight, SHEET_HEIGHT.min, SHEET_HEIGHT.max) : d.sheetHeight,
  };
}

const CHANGE_EVENT = "docuchat:chat-settings";
/** A drag changes the width many times a second; the account gets the value it ends on. */
const SAVE_DELAY_MS = 400;

/** This tab's latest values, and whose (the root loader's data is not reloaded after a save). */
let latest: { owner: string | null; settings: ChatSettings } | null = null;
const latestFor = (owner: string | null) => (latest && latest.owner === owner ? latest.settings : null);
let pending: Partial<ChatSettings> = {};
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleSave(patch: Partial<ChatSettings>, csrfToken: string) {
  pending = { ...pending, ...patch };
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    const body = pending;
    pending = {};
    void fetch("/api/chat-settings", {
      method: "PUT",
      credentials: "same-origin",
      keepalive: true,
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken },
      body: JSON.stringify(body),
    })
      .then((response) => {
        // An admin acting as the user keeps changes to this page (read-only account); anything else is worth a trace.
        if (!response.ok && response.status !== 403) console.warn("The chat settings could not be saved", response.status);
      })
      .catch((error: unknown) => console.warn("The chat settings could not be saved", error));
  }, SAVE_DELAY_MS);
}

/** The chat settings, shared by every component of the tab that calls it; changes are saved to the account. */
export function useChatSettings(): [ChatSettings, (patch: Partial<ChatSettings>) => void] {
  const root = useRouteLoaderData<{ chatLayout?: ChatSettings | null; chatLayoutOwner?: string | null }>("root");
  const saved = root?.chatLayout;
  const owner = root?.chatLayoutOwner ?? null;
  const csrfToken = useCsrfToken();
  const [settings, setSettings] = useState<ChatSettings>(() => latestFor(owner) ?? normalizeChatSettings(saved));
  useEffect(() => {
    const sync = () => {
      const settings = latestFor(owner);
      if (settings) setSettings(settings);
    };
    window.addEventListener(CHANGE_EVENT, sync);
    return () => window.removeEventListener(CHANGE_EVENT, sync);
  }, [owner]);
  const update = useCallback(
    (patch: Partial<ChatSettings>) => {
      const next = normalizeChatSettings({ ...(latestFor(owner) ?? normalizeChatSettings(saved)), ...patch });
      latest = { owner, settings: next };
      setSettings(next);
      window.dispatchEvent(new Event(CHANGE_EVENT));
      const changed = (Object.keys(patch) as (keyof ChatSettings)[]).filter((key) => patch[key] !== undefined);
      scheduleSave(Object.fromEntries(changed.map((key) => [key, next[key]])), csrfToken);
    },
    [saved, owner, csrfToken],
  );
  return [settings, update];
}
