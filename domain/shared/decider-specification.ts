import { expect } from "vitest";
import { type Decider, type DomainEvent, fold } from "./decider";
import { DomainError } from "./domain-error";

/**
 * Given/when/then for deciders (the style of Emmett's DeciderSpecification):
 *
 *   DeciderSpecification.for(userDecider)
 *     .given([registered])
 *     .when({ type: "ConfirmSignup", ... })
 *     .then([{ type: "SignupConfirmed", ... }]);   // or .thenThrows("CODE_EXPIRED")
 *
 * Refusals are checked by their DomainError code, which routes map to the spec's texts.
 */
export const DeciderSpecification = {
  for<Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>) {
    return {
      given(history: readonly Event[]) {
        return new Given(decider, history);
      },
      /** The events a sequence of accepted commands records, each decided on the history before it. */
      history(commands: readonly Command[]): Event[] {
        return commands.reduce<Event[]>((events, command) => [...events, ...new Given(decider, events).when(command).events()], []);
      },
    };
  },
};

class Given<Command, Event extends DomainEvent, State> {
  constructor(
    private readonly decider: Decider<Command, Event, State>,
    private readonly history: readonly Event[],
  ) {}

  /** The state the history folds to. */
  state(): State {
    return fold(this.decider, this.history);
  }

  when(command: Command): When<Event> {
    return new When(() => this.decider.decide(command, this.state()));
  }
}

class When<Event extends DomainEvent> {
  constructor(private readonly decide: () => Event[]) {}

  /** The new events, for building the next history. */
  events(): Event[] {
    return this.decide();
  }

  /** Exactly these events; or a check of the events decided. */
  then(expected: readonly Event[] | ((events: Event[]) => void)): void {
    const events = this.decide();
    if (typeof expected === "function") expected(events);
    else expect(events).toEqual(expected);
  }

  /** Accepted, and nothing to record. */
  thenNothing(): void {
    expect(this.decide()).toEqual([]);
  }

  /** Refused with this DomainError code (and, where the spec fixes it, this text). */
  thenThrows(code: string, message?: string): void {
    let refusal: unknown = null;
    try {
      this.decide();
    } catch (error) {
      refusal = error;
    }
    expect(refusal, `expected a refusal with code ${code}`).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).code).toBe(code);
    if (message !== undefined) expect((refusal as DomainError).message).toBe(message);
  }
}
