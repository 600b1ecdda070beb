import type { Decider, DomainEvent } from "#domain/shared/decider";

/**
 * A conversation in a workspace (stream `conversation-<id>`). Messages,
 * ratings and regenerations are added by the conversation slice.
 */
export type ConversationEvent = DomainEvent<
  "ConversationStarted",
  { conversationId: string; workspaceId: string; ownerId: string; startedAt: string; personal: { title: string } | null }
>;

export type ConversationCommand = {
  type: "StartConversation";
  conversationId: string;
  workspaceId: string;
  ownerId: string;
  title: string;
  now: Date;
};

export type ConversationState = { exists: false } | { exists: true; conversationId: string; workspaceId: string; ownerId: string };

export const conversationDecider: Decider<ConversationCommand, ConversationEvent, ConversationState> = {
  initialState: () => ({ exists: false }),
  decide(command, state) {
    if (state.exists) return [];
    return [
      {
        type: "ConversationStarted",
        data: {
          conversationId: command.conversationId,
          workspaceId: command.workspaceId,
          ownerId: command.ownerId,
          startedAt: command.now.toISOString(),
          personal: { title: command.title },
        },
      },
    ];
  },
  evolve(state, event) {
    return event.type === "ConversationStarted"
      ? { exists: true, conversationId: event.data.conversationId, workspaceId: event.data.workspaceId, ownerId: event.data.ownerId }
      : state;
  },
};

export const conversationStreamId = (conversationId: string) => `conversation-${conversationId}`;
