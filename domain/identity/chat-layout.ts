import { z } from "zod";
import type { Decider, DomainEvent } from "#domain/shared/decider";
import { isLanguage } from "./languages";

/**
 * A user's chat layout and answer language (spec 001 §3 User settings; §9
 * defaults and limits), stream `chat-layout-<userId>`. Kept per account, so the
 * chat looks the same on every browser the user signs in from.
 */

export const FONT_SIZES = ["Small", "Medium", "Large"] as const;
export type FontSize = (typeof FONT_SIZES)[number];

/** Chat panel width, percent of the screen. */
export const CHAT_WIDTH = { min: 47, max: 90, default: 47 } as const;
/** Bottom sheet height on a phone, percent of the viewport height. */
export const SHEET_HEIGHT = { min: 25, max: 80, default: 50 } as const;

export interface ChatLayout {
  fontSize: FontSize;
  /** Language answers are written in (a name from LANGUAGES). */
  responseLanguage: string;
  isChatOnLeft: boolean;
  chatbotWidth: number;
  sheetHeight: number;
}

export const DEFAULT_CHAT_LAYOUT: ChatLayout = {
  fontSize: "Medium",
  responseLanguage: "English",
  isChatOnLeft: false,
  chatbotWidth: CHAT_WIDTH.default,
  sheetHeight: SHEET_HEIGHT.default,
};

/** What a change may carry: any subset of the settings, each checked. */
export const chatLayoutChangeSchema = z
  .object({
    fontSize: z.enum(FONT_SIZES, { message: "Choose Small, Medium or Large." }),
    responseLanguage: z.string().refine(isLanguage, "Choose a language from the list."),
    isChatOnLeft: z.boolean({ message: "Chat position must be left or right." }),
    chatbotWidth: z.number().int().min(CHAT_WIDTH.min, `The chat is at least ${CHAT_WIDTH.min}% wide.`).max(CHAT_WIDTH.max, `The chat is at most ${CHAT_WIDTH.max}% wide.`),
    sheetHeight: z.number().int().min(SHEET_HEIGHT.min, `The chat sheet is at least ${SHEET_HEIGHT.min}% high.`).max(SHEET_HEIGHT.max, `The chat sheet is at most ${SHEET_HEIGHT.max}% high.`),
  })
  .partial()
  .strict();

export type ChatLayoutChange = z.infer<typeof chatLayoutChangeSchema>;

export type ChatLayoutEvent = DomainEvent<"ChatLayoutChanged", { layout: ChatLayout; changedAt: string }>;
export type ChatLayoutCommand = { type: "ChangeChatLayout"; change: ChatLayoutChange; now: Date };

export const chatLayoutDecider: Decider<ChatLayoutCommand, ChatLayoutEvent, ChatLayout> = {
  initialState: () => DEFAULT_CHAT_LAYOUT,
  decide(command, state) {
    const layout = { ...state, ...definedOnly(command.change) };
    const changed = (Object.keys(layout) as (keyof ChatLayout)[]).some((key) => layout[key] !== state[key]);
    return changed ? [{ type: "ChatLayoutChanged", data: { layout, changedAt: command.now.toISOString() } }] : [];
  },
  evolve: (_state, event) => event.data.layout,
};

const definedOnly = (change: ChatLayoutChange): Partial<ChatLayout> =>
  Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<ChatLayout>;

export const chatLayoutStreamId = (userId: string) => `chat-layout-${userId}`;
