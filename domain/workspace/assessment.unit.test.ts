import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import { type AssessmentCommand, type AssessmentEvent, assessmentDecider, assessmentPhase } from "./assessment";

const at = (minutes: number) => new Date(Date.UTC(2024, 10, 20, 9, minutes));
const given = (events: AssessmentEvent[]) => ({
  when: (command: AssessmentCommand) => assessmentDecider.decide(command, fold(assessmentDecider, events)),
});
const start = (now: Date, offerClosesAt: Date | null = null): AssessmentCommand => ({
  type: "StartAssessment",
  userId: "u1",
  workspaceId: "w1",
  documentId: "d1",
  now,
  offerClosesAt,
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return "no error";
};

const started: AssessmentEvent[] = [
  { type: "AssessmentStarted", data: { userId: "u1", workspaceId: "w1", documentId: "d1", startedAt: at(0).toISOString() } },
  { type: "AssessmentDeadlineSet", data: { endsAt: at(60).toISOString() } },
];

describe("a candidate's assessment", () => {
  it("starts once, in a workspace, with a deadline one hour after the start", () => {
    expect(given([]).when(start(at(0)))).toEqual(started);
  });

  it("cannot be started again while it runs, nor after it ended", () => {
    expect(codeOf(() => given(started).when(start(at(10))))).toBe("ASSESSMENT_ALREADY_STARTED");
    expect(codeOf(() => given(started).when(start(at(61))))).toBe("ASSESSMENT_ENDED");
    const ended: AssessmentEvent[] = [...started, { type: "AssessmentEnded", data: { endedAt: at(61).toISOString() } }];
    expect(codeOf(() => given(ended).when(start(at(120))))).toBe("ASSESSMENT_ENDED");
  });

  it("cannot be started after the offer closed", () => {
    expect(codeOf(() => given([]).when(start(at(30), at(29))))).toBe("ASSESSMENT_ENDED");
    expect(given([]).when(start(at(29), at(29)))).toHaveLength(2);
  });

  it("ends when its deadline has passed, once, and not before", () => {
    expect(given(started).when({ type: "EndAssessment", now: at(59) })).toEqual([]);
    const ended = given(started).when({ type: "EndAssessment", now: at(60) });
    expect(ended).toEqual([{ type: "AssessmentEnded", data: { endedAt: at(60).toISOString() } }]);
    expect(given([...started, ...ended]).when({ type: "EndAssessment", now: at(90) })).toEqual([]);
    expect(given([]).when({ type: "EndAssessment", now: at(90) })).toEqual([]);
  });

  it("shows as new, running, or ended by the server's clock, whether or not the end was recorded yet", () => {
    const state = (events: AssessmentEvent[]) => fold(assessmentDecider, events);
    expect(assessmentPhase(state([]), at(0), null)).toBe("new");
    expect(assessmentPhase(state([]), at(0), at(-1))).toBe("ended");
    expect(assessmentPhase(state(started), at(59), null)).toBe("running");
    expect(assessmentPhase(state(started), at(60), null)).toBe("ended");
    expect(fold(assessmentDecider, started)).toEqual({ status: "Running", workspaceId: "w1", startedAt: at(0).toISOString(), endsAt: at(60).toISOString() });
  });
});
