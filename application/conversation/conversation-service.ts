import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { handleCommand } from "#application/shared/command-handler";
import type { RequestContext } from "#application/shared/request-context";
import { conversationDecider, conversationStreamId } from "#domain/conversation/conversation";

/** Starting conversations; messages and streaming arrive with the conversation slice. */
@injectable()
export class ConversationService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** Idempotent by conversation id. */
  async start(input: { conversationId: string; workspaceId: string; ownerId: string; title?: string }, ctx: RequestContext | null) {
    return handleCommand(
      this.events,
      this.ids,
      conversationDecider,
      conversationStreamId(input.conversationId),
      { type: "StartConversation", ...input, title: input.title ?? "", now: this.clock.now() },
      {
        metadata: {
          correlationId: ctx?.requestId ?? `conversation-${input.conversationId}`,
          actorId: ctx?.actorId ?? input.ownerId,
          impersonatorId: ctx?.impersonatorId,
          subjectId: input.ownerId,
        },
      },
    );
  }
}
