import { useCallback, useEffect, useState } from "react";
import { RESPONSE_LANGUAGES } from "./languages";

/** Per-user chat layout and answer preferences (spec 001 §3 User settings, §9 limits), kept in the browser. */
export type FontSize = "Small" | "Medium" | "Large";
export type ChatSettings = {
  fontSize: FontSize;
  responseLanguage: string;
  isChatOnLeft: boolean;
  /** Percent of the screen width, 47–90. */
  chatbotWidth: number;
  /** Mobile sheet height in vh, 25–80. */
  sheetHeight: number;
};

export const CHAT_SETTINGS_KEY = "docuchat.chatSettings";
export const CHAT_WIDTH = { min: 47, max: 90, default: 47 } as const;
export const SHEET_HEIGHT = { min: 25, max: 80, default: 50 } as const;
export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  fontSize: "Medium",
  responseLanguage: "English",
  isChatOnLeft: false,
  chatbotWidth: CHAT_WIDTH.default,
  sheetHeight: SHEET_HEIGHT.default,
};

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const CHANGE_EVENT = "docuchat:chat-settings";

/** Reads whatever is stored, keeping only valid values (the storage is user-editable). */
export function parseChatSettings(raw: string | null): ChatSettings {
  if (!raw) return DEFAULT_CHAT_SETTINGS;
  try {
    const v = JSON.parse(raw) as Partial<Record<keyof ChatSettings, unknown>>;
    return {
      fontSize: v.fontSize === "Small" || v.fontSize === "Large" || v.fontSize === "Medium" ? v.fontSize : DEFAULT_CHAT_SETTINGS.fontSize,
      responseLanguage:
        typeof v.responseLanguage === "string" && (RESPONSE_LANGUAGES as readonly string[]).includes(v.responseLanguage)
          ? v.responseLanguage
          : DEFAULT_CHAT_SETTINGS.responseLanguage,
      isChatOnLeft: v.isChatOnLeft === true,
      chatbotWidth: typeof v.chatbotWidth === "number" && Number.isFinite(v.chatbotWidth) ? clamp(v.chatbotWidth, CHAT_WIDTH.min, CHAT_WIDTH.max) : CHAT_WIDTH.default,
      sheetHeight: typeof v.sheetHeight === "number" && Number.isFinite(v.sheetHeight) ? clamp(v.sheetHeight, SHEET_HEIGHT.min, SHEET_HEIGHT.max) : SHEET_HEIGHT.default,
    };
  } catch {
    return DEFAULT_CHAT_SETTINGS;
  }
}

function read(): ChatSettings {
  try {
    return parseChatSettings(window.localStorage.getItem(CHAT_SETTINGS_KEY));
  } catch {
    return DEFAULT_CHAT_SETTINGS;
  }
}

/**
 * The chat settings, shared by every component that calls it (same tab via a
 * window event, other tabs via `storage`). Server render and first paint use
 * the defaults; the stored values apply right after hydration.
 */
export function useChatSettings(): [ChatSettings, (patch: Partial<ChatSettings>) => void] {
  const [settings, setSettings] = useState<ChatSettings>(DEFAULT_CHAT_SETTINGS);
  useEffect(() => {
    setSettings(read());
    const sync = () => setSettings(read());
    const onStorage = (e: StorageEvent) => {
      if (e.key === CHAT_SETTINGS_KEY) sync();
    };
    window.addEventListener(CHANGE_EVENT, sync);
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener(CHANGE_EVENT, sync);
      window.removeEventListener("storage", onStorage);
    };
  }, []);
  const update = useCallback((patch: Partial<ChatSettings>) => {
    const next = parseChatSettings(JSON.stringify({ ...read(), ...patch }));
    try {
      window.localStorage.setItem(CHAT_SETTINGS_KEY, JSON.stringify(next));
    } catch {
      // private mode: keep it for this page only
    }
    setSettings(next);
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);
  return [settings, update];
}
