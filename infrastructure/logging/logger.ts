import { AsyncLocalStorage } from "node:async_hooks";
import { context, trace } from "@opentelemetry/api";
import pino, { type Logger } from "pino";

/** Carries the request id through async calls so every log line of a request names it. */
export const logContext = new AsyncLocalStorage<{ requestId: string }>();

/**
 * One JSON object per line (docs/logs.md): `level` by name, `time` in ISO 8601, the process's `pid` and
 * `role`, and a request's `requestId` and `traceId` where one is current. The supervisor writes the same
 * shape (infrastructure/logging/supervisor-log.mjs).
 */
export function createLogger(level: string, options: { role?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid, role: options.role ?? "app" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
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
    options.destination,
  );
}

/** The trace of the span current where a line is written (none while tracing is off: no span is ever current then). */
function currentTraceId(): string | undefined {
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const spanContext = span.spanContext();
  return trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
