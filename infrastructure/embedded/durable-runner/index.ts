export { EmbeddedWorkflowEngine, type EmbeddedWorkflowEngineOptions, type RunnerLogger } from "./embedded-workflow-engine";
export { EmbeddedJobQueue } from "./embedded-job-queue";
export { embeddedJobWorkflow, jobActivities, jobActivityName } from "./job-workflow";
export { ActivityFailedError, NonDeterminismError } from "./replay-context";
