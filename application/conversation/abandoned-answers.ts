import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProcessLeases } from "#application/ports/process-leases";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import { eventMetadata } from "#application/shared/request-context";
import type { ConversationCommand, ConversationEvent, ConversationState } from "#domain/conversation/conversation";
import { conversationAggregate } from "#domain/conversation/conversation-events";
import { streamingAnswers } from "#projections/conversation/conversations.queries";

/** How long a lease's count may stand still before its process counts as gone: several missed renewals. */
export const LEASE_TIMEOUT_MS = 30_000;

/**
 * Ends answers no process will ever finish (issue 42, decision 240). An answer
 * names the process that streams it; a process that stopped cleanly gave its
 * lease back, one that was killed left a lease whose count stands still. Their
 * answers end as interrupted, so the reader may regenerate and the
 * conversation takes new questions. Run by the background process.
 */
@injectable()
export class AbandonedAnswers {
  /** Each lease's count when it last moved, and when that was on the monotonic clock. */
  private readonly seen = new Map<string, { renewals: number; movedAt: number }>();
  private readonly conversations: Aggregate<ConversationCommand, ConversationEvent, ConversationState>;

  constructor(
    @inject(TOKENS.ProcessLeases) private readonly leases: ProcessLeases,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {
    this.conversations = new Aggregate(events, ids, conversationAggregate);
  }

  /**
   * `elapsedMs` is a monotonic reading (performance.now()): a wall-clock step
   * must not make every living process look gone. Returns how many answers ended.
   */
  async sweep(elapsedMs: number): Promise<number> {
    const live = await this.liveProcesses(elapsedMs);
    const owners = new Map((await streamingAnswers(this.readModels)).map((answer) => [answer.conversationId, answer.ownerId]));
    let ended = 0;
    for (const [conversationId, ownerId] of owners) {
      const result = await this.conversations.handle(
        conversationId,
        { type: "EndAbandonedAnswers", liveProcesses: live, now: this.clock.now() },
        { metadata: eventMetadata(null, ownerId, `conversation-${conversationId}`) },
      );
      ended += result.events.length;
    }
    return ended;
  }

  /** A lease first seen now is given the benefit of the doubt for a whole timeout. */
  private async liveProcesses(elapsedMs: number): Promise<string[]> {
    const live: string[] = [];
    const gone: string[] = [];
    const held = await this.leases.held();
    for (const { processId, renewals } of held) {
      let lease = this.seen.get(processId);
      if (!lease || lease.renewals !== renewals) {
        lease = { renewals, movedAt: elapsedMs };
        this.seen.set(processId, lease);
      }
      (elapsedMs - lease.movedAt < LEASE_TIMEOUT_MS ? live : gone).push(processId);
    }
    for (const processId of [...this.seen.keys()]) if (!live.includes(processId)) this.seen.delete(processId);
    if (gone.length > 0) await this.leases.forget(gone);
    return live;
  }
}
