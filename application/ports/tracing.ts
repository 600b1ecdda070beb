/**
 * Traces (issue 32): a question followed from the HTTP request through its
 * commands, the events they append, the projectors that read them (in another
 * process, joined through the W3C trace context carried in the events'
 * metadata), retrieval and the model call. The OpenTelemetry adapter lives in
 * infrastructure/observability; with tracing off (`noTracing`) every call is a
 * plain function call.
 */

/** W3C trace context, as carried in an event's metadata or an HTTP header. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface SpanOptions {
  kind?: "internal" | "server" | "client" | "consumer";
  attributes?: SpanAttributes;
  /** The parent carried from elsewhere (an event's metadata, a request's header) instead of the current span. */
  parent?: TraceCarrier;
}

/** What a piece of work may add to its span while it runs. */
export interface SpanNotes {
  set(attributes: SpanAttributes): void;
}

/** A span its opener ends later: when a response finishes, when a stream ends. */
export interface OpenSpan extends SpanNotes {
  rename(name: string): void;
  /** Ends the span; with an error it is marked failed. */
  end(error?: unknown): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Runs `work` in a span, child of the current one (or of `options.parent`), ended when it settles. */
  inSpan<T>(name: string, options: SpanOptions, work: (span: SpanNotes) => Promise<T>): Promise<T>;
  /** Opens a span that is current while `work` runs (and in what it starts) and that the caller ends. */
  openSpan<T>(name: string, options: SpanOptions, work: (span: OpenSpan) => T): T;
  /** The current span's context, to carry to another process; undefined when off or outside a span. */
  carrier(): TraceCarrier | undefined;
}

const noSpan: OpenSpan = { set: () => undefined, rename: () => undefined, end: () => undefined };

export const noTracing: Tracing = {
  enabled: false,
  inSpan: (_name, _options, work) => work(noSpan),
  openSpan: (_name, _options, work) => work(noSpan),
  carrier: () => undefined,
};
