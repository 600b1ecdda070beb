import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventStore, RecordedEvent } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { Reactor } from "#application/ports/reactor";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import { aggregateIdIn } from "#domain/shared/decider";
import { orderStreamId } from "#domain/billing/order";
import { orderAggregate } from "#domain/billing/order-events";
import { referralAggregate, signUpFields } from "#domain/billing/referral-events";
import { referrerOf } from "#projections/billing/billing.queries";
import { Subscriptions } from "./subscriptions";

/** A paid order prepays its plan's period on the buyer's subscription (once per order: the decider ignores a repeat). */
@injectable()
export class PrepaidPeriodGranter implements Reactor {
  readonly name = "billing.grant-prepaid-period";
  readonly eventTypes = ["OrderPaid"];
  private readonly orders;

  constructor(
    @inject(TOKENS.EventStore) eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(Subscriptions) private readonly subscriptions: Subscriptions,
  ) {
    this.orders = new Aggregate(eventStore, ids, orderAggregate);
  }

  async react(recorded: RecordedEvent): Promise<void> {
    const { state } = await this.orders.load(aggregateIdIn(recorded.streamId, orderStreamId));
    if (state.status === "none") return;
    await this.subscriptions.prepay(state.userId, state.orderId, state.planId, {
      correlationId: recorded.metadata.correlationId,
      causationId: recorded.eventId,
      actorId: "system",
      subjectId: state.userId,
    });
  }
}

/** Identity's sign-up with a referral code is recorded on the referrer's referral stream. */
@injectable()
export class ReferredSignUpRecorder implements Reactor {
  readonly name = "billing.record-referred-sign-up";
  readonly eventTypes = ["UserRegistered"];
  private readonly referrals;

  constructor(
    @inject(TOKENS.EventStore) eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
  ) {
    this.referrals = new Aggregate(eventStore, ids, referralAggregate);
  }

  async react(recorded: RecordedEvent): Promise<void> {
    if (!recorded.streamId.startsWith("user-")) return;
    const signUp = signUpFields.parse(recorded.data);
    if (!signUp.refCode) return;
    const referrerId = await referrerOf(this.readModels, signUp.refCode);
    if (!referrerId || referrerId === signUp.userId) return;
    await this.referrals.handle(
      referrerId,
      { type: "RecordReferredSignUp", referredUserId: signUp.userId, joinedAt: signUp.registeredAt },
      { metadata: { correlationId: recorded.metadata.correlationId, causationId: recorded.eventId, actorId: "system", subjectId: referrerId } },
    );
  }
}
