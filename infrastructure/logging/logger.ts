import { AsyncLocalStorage } from "node:async_hooks";
import { context, trace } from "@opentelemetry/api";
import pino, { type Logger } from "pino";

/** Carries the request id through async calls so every log line of a request names it. */
export const logContext = new AsyncLocalStorage<{ requestId: string }>();

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      mixin: () => {
        const ctx = logContext.getStore();
        const traceId = currentTraceId();
        return { ...(ctx ? { requestId: ctx.requestId } : {}), ...(traceId ? { traceId } : {}) };
      },
      // Secrets never reach the log, whatever a caller passes; nor do personal fields, which a purge could not remove from it.
      redact: {
        paths: [
          ...["password", "apiKey", "token", "cookie"],
          ...["email", "username", "firstName", "lastName", "to"],
        ].flatMap((field) => [field, `*.${field}`]),
        censor: "[redacted]",
      },
    },
    destination,
  );
}

/** The trace of the span current where a line is written (none while tracing is off: no span is ever current then). */
function currentTraceId(): string | undefined {
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const spanContext = span.spanContext();
  return trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
