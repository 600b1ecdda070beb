import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import { parseInput } from "#application/shared/parse";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { type ChatLayout, chatLayoutChangeSchema, type ChatLayoutCommand, type ChatLayoutEvent, DEFAULT_CHAT_LAYOUT } from "#domain/identity/chat-layout";
import { chatLayoutAggregate } from "#domain/identity/identity-events";
import { CHAT_LAYOUTS, type ChatLayoutReadModel } from "#projections/identity/chat-layouts.projector";

/** The chat's font size, answer language, side and size, per account (spec 001 §2 Chat Settings). */
@injectable()
export class ChatLayoutService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
  ) {
    this.layouts = new Aggregate(events, ids, chatLayoutAggregate);
  }

  private readonly layouts: Aggregate<ChatLayoutCommand, ChatLayoutEvent, ChatLayout>;

  async get(userId: string): Promise<ChatLayout> {
    const stored = await this.readModels.collection<ChatLayoutReadModel>(CHAT_LAYOUTS).get(userId);
    if (!stored) return DEFAULT_CHAT_LAYOUT;
    const { id: _id, ...layout } = stored;
    return { ...DEFAULT_CHAT_LAYOUT, ...layout };
  }

  /** Applies any subset of the settings; each is checked and refused with a reason. Answers the whole layout. */
  async change(userId: string, input: unknown, ctx: RequestContext): Promise<ChatLayout> {
    const change = parseInput(chatLayoutChangeSchema, input);
    const result = await this.layouts.handle(userId, { type: "ChangeChatLayout", change, now: this.clock.now() }, {
      metadata: eventMetadata(ctx, userId, `chat-layout-${userId}`),
    });
    await this.projections.waitForPosition(result.position);
    return this.get(userId);
  }
}
