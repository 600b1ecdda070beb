import type { ActivityRegistry, JobHandlerRegistry, WorkflowDefinition } from "#application/ports/workflow";

export interface JobRunInput {
  name: string;
  payload: unknown;
  maxAttempts?: number;
}

export const jobActivityName = (jobName: string): string => `job:${jobName}`;

/** A background job is a run of this one-activity workflow; retries and crash recovery come from the runner. */
export const embeddedJobWorkflow: WorkflowDefinition<JobRunInput, null> = {
  name: "embedded-job",
  async run(ctx, input) {
    await ctx.activity(jobActivityName(input.name), input.payload, {
      maxAttempts: input.maxAttempts ?? 5,
      initialBackoffMs: 1_000,
    });
    return null;
  },
};

/** Job handlers as activities `job:<name>`, to merge into the engine's activity registry. */
export function jobActivities(handlers: JobHandlerRegistry): ActivityRegistry {
  const activities: ActivityRegistry = {};
  for (const [name, handler] of Object.entries(handlers)) {
    activities[jobActivityName(name)] = async (payload) => {
      await handler(payload);
      return null;
    };
  }
  return activities;
}
