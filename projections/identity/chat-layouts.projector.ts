import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { chatLayoutAggregate } from "#domain/identity/identity-events";
import type { ChatLayout } from "#domain/identity/chat-layout";

/** Each user's chat layout; a user without a row has the defaults. A purged account's row goes with it. */
export interface ChatLayoutReadModel extends ChatLayout {
  /** The user id. */
  id: string;
}

export const CHAT_LAYOUTS = "identity_chat_layouts";

export const chatLayoutsProjector: Projector = {
  name: "identity.chat-layouts",
  collections: [CHAT_LAYOUTS],
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    const layouts = store.collection<ChatLayoutReadModel>(CHAT_LAYOUTS);
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      await layouts.delete(recorded.streamId.slice("user-".length));
      return;
    }
    if (!recorded.streamId.startsWith("chat-layout-")) return;
    const event = readEvent(chatLayoutAggregate.events, recorded);
    if (event.type !== "ChatLayoutChanged") return;
    await layouts.upsert({ id: recorded.streamId.slice("chat-layout-".length), ...event.data.layout });
  },
};
