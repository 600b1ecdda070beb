import { inject, injectable } from "inversify";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import { aggregateIdIn } from "#domain/shared/decider";
import { readEvent } from "#domain/shared/event-schemas";
import { workspaceStreamId } from "#domain/workspace/workspace";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import { ConversationService } from "./conversation-service";

/**
 * The workspace's `FirstConversationCreated` (its launch chose the id): the
 * conversation itself starts here, in its own context. Starting is idempotent
 * by conversation id, so a replayed event starts nothing twice.
 */
@injectable()
export class FirstConversationStarter implements Reactor {
  readonly name = "conversation.start-first";
  readonly eventTypes = ["FirstConversationCreated"];

  constructor(@inject(ConversationService) private readonly conversations: ConversationService) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(workspaceAggregate.events, recorded);
    const ownerId = recorded.metadata.subjectId;
    if (event.type !== "FirstConversationCreated" || !ownerId) return;
    const workspaceId = aggregateIdIn(recorded.streamId, workspaceStreamId);
    await this.conversations.start({ conversationId: event.data.conversationId, workspaceId, ownerId }, null);
  }
}
