import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * The candidate assessment (spec 001 /interview): one timed question answered
 * in a workspace, one per user, stream `assessment-<userId>`. Kept on the
 * server, so clearing cookies or switching browsers neither restarts it nor
 * moves its deadline.
 */

/** Assessment duration: 1 hour (spec 001 §9). */
export const ASSESSMENT_DURATION_MS = 3_600_000;

export type AssessmentEvent =
  | DomainEvent<"AssessmentStarted", { userId: string; workspaceId: string; documentId: string; startedAt: string }>
  /** The time the candidate races against, fixed by the server when the assessment starts. */
  | DomainEvent<"AssessmentDeadlineSet", { endsAt: string }>
  | DomainEvent<"AssessmentEnded", { endedAt: string }>;

export type AssessmentCommand =
  | { type: "StartAssessment"; userId: string; workspaceId: string; documentId: string; now: Date; offerClosesAt: Date | null }
  /** Records the end once the deadline has passed; nothing before it. */
  | { type: "EndAssessment"; now: Date };

export type AssessmentState =
  | { status: "NotStarted" }
  | { status: "Running"; workspaceId: string; startedAt: string; endsAt: string }
  | { status: "Ended"; workspaceId: string; startedAt: string; endsAt: string; endedAt: string };

/** The phase a person sees at a moment: a running assessment whose deadline passed has ended, recorded or not. */
export type AssessmentPhase = "new" | "running" | "ended";

export function assessmentPhase(state: AssessmentState, now: Date, offerClosesAt: Date | null): AssessmentPhase {
  switch (state.status) {
    case "NotStarted":
      return offerClosed(now, offerClosesAt) ? "ended" : "new";
    case "Running":
      return deadlinePassed(state, now) ? "ended" : "running";
    case "Ended":
      return "ended";
  }
}

const offerClosed = (now: Date, offerClosesAt: Date | null) => offerClosesAt !== null && now.getTime() > offerClosesAt.getTime();
const deadlinePassed = (state: { endsAt: string }, now: Date) => now.getTime() >= Date.parse(state.endsAt);
const ended = () => new DomainError("ASSESSMENT_ENDED", "This assessment has ended.");

function start(command: Extract<AssessmentCommand, { type: "StartAssessment" }>, state: AssessmentState): AssessmentEvent[] {
  if (state.status === "Ended") throw ended();
  if (state.status === "Running") {
    if (deadlinePassed(state, command.now)) throw ended();
    throw new DomainError("ASSESSMENT_ALREADY_STARTED", "Your assessment is already running.");
  }
  if (offerClosed(command.now, command.offerClosesAt)) throw ended();
  const { userId, workspaceId, documentId } = command;
  return [
    { type: "AssessmentStarted", data: { userId, workspaceId, documentId, startedAt: command.now.toISOString() } },
    { type: "AssessmentDeadlineSet", data: { endsAt: new Date(command.now.getTime() + ASSESSMENT_DURATION_MS).toISOString() } },
  ];
}

function end(command: Extract<AssessmentCommand, { type: "EndAssessment" }>, state: AssessmentState): AssessmentEvent[] {
  if (state.status !== "Running" || !deadlinePassed(state, command.now)) return [];
  return [{ type: "AssessmentEnded", data: { endedAt: command.now.toISOString() } }];
}

export function evolve(state: AssessmentState, event: AssessmentEvent): AssessmentState {
  switch (event.type) {
    case "AssessmentStarted":
      // The deadline follows in the same append; until then it is the start itself.
      return { status: "Running", workspaceId: event.data.workspaceId, startedAt: event.data.startedAt, endsAt: event.data.startedAt };
    case "AssessmentDeadlineSet":
      return state.status === "Running" ? { ...state, endsAt: event.data.endsAt } : state;
    case "AssessmentEnded":
      return state.status === "Running" ? { ...state, status: "Ended", endedAt: event.data.endedAt } : state;
  }
}

export const assessmentDecider: Decider<AssessmentCommand, AssessmentEvent, AssessmentState> = {
  initialState: () => ({ status: "NotStarted" }),
  decide: (command, state) => (command.type === "StartAssessment" ? start(command, state) : end(command, state)),
  evolve,
};

export const assessmentStreamId = (userId: string) => `assessment-${userId}`;
