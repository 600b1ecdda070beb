import type { ReadModelStore } from "#application/ports/read-model-store";
import { DEFAULT_CHAT_LAYOUT, type ChatLayout } from "#domain/identity/chat-layout";
import { CHAT_LAYOUTS, type ChatLayoutReadModel } from "./chat-layouts.projector";

/** The user's chat layout: what they changed over the defaults (a user without a row has the defaults). */
export async function chatLayoutOf(store: ReadModelStore, userId: string): Promise<ChatLayout> {
  const stored = await store.collection<ChatLayoutReadModel>(CHAT_LAYOUTS).get(userId);
  if (!stored) return DEFAULT_CHAT_LAYOUT;
  const { id: _id, ...layout } = stored;
  return { ...DEFAULT_CHAT_LAYOUT, ...layout };
}
