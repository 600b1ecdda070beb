import { ApplicationFailure, Context } from "@temporalio/activity";
import type { Activity, ActivityRegistry } from "#application/ports/workflow";

export interface ActivityLogger {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
}

/**
 * An error the application marks as permanent (`retryable: false`, e.g. a
 * document that no longer exists): retrying cannot help, so Temporal is told
 * not to, instead of spending the activity's remaining attempts.
 */
function isPermanent(error: unknown): error is Error & { retryable: false } {
  return error instanceof Error && (error as { retryable?: unknown }).retryable === false;
}

/**
 * The application's activities (idempotent calls into the application layer,
 * the same registry the embedded runner uses) as Temporal activities: each
 * attempt is logged with the workflow id and attempt number an operator sees in
 * Temporal's UI, and permanent errors become non-retryable failures.
 */
export function temporalActivities(registry: ActivityRegistry, logger?: ActivityLogger): Record<string, Activity> {
  const wrapped: Record<string, Activity> = {};
  for (const [name, activity] of Object.entries(registry)) {
    wrapped[name] = async (input: unknown) => {
      const { info } = Context.current();
      const where = { activity: name, workflowId: info.workflowExecution?.workflowId ?? null, attempt: info.attempt };
      try {
        const result = await activity(input);
        if (info.attempt > 1) logger?.info(where, "activity succeeded after retry");
        return result ?? null;
      } catch (error) {
        logger?.warn({ ...where, err: error }, "activity attempt failed");
        if (isPermanent(error)) {
          throw ApplicationFailure.create({ message: error.message, type: error.name, nonRetryable: true, cause: error });
        }
        throw error;
      }
    };
  }
  return wrapped;
}
