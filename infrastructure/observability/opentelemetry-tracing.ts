import { type Attributes, type Context, context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { NodeSDK } from "@opentelemetry/sdk-node";
import type { OpenSpan, SpanAttributes, SpanOptions, TraceCarrier, Tracing } from "#application/ports/tracing";

export interface TracingConfig {
  /** The OTLP/HTTP collector's base URL; spans go to `<endpoint>/v1/traces` as JSON. */
  endpoint: string;
  serviceName: string;
}

const KINDS = { internal: SpanKind.INTERNAL, server: SpanKind.SERVER, client: SpanKind.CLIENT, consumer: SpanKind.CONSUMER } as const;

/** Attributes without the undefined ones (a model with no provider prefix, a request without a route yet). */
function attributesOf(attributes: SpanAttributes | undefined): Attributes {
  const defined: Attributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (value !== undefined) defined[key] = value;
  return defined;
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * The tracing port on OpenTelemetry: one SDK per process (service name plus the
 * process's role), spans batched to an OTLP/HTTP collector (Jaeger, Tempo, an
 * OpenTelemetry Collector). No automatic instrumentation: the spans are the
 * ones the app opens where its own work happens, so a trace reads in the
 * domain's words.
 */
export class OpenTelemetryTracing implements Tracing {
  readonly enabled = true;
  private readonly tracer = trace.getTracer("docuchat");

  private constructor(
    private readonly sdk: NodeSDK,
    private readonly role: string,
  ) {}

  /** The SDK's packages are imported here, not at the top: without traces configured they are never loaded. */
  static async start(config: TracingConfig, role: string): Promise<OpenTelemetryTracing> {
    const [{ NodeSDK }, { OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/sdk-trace-base"),
    ]);
    const sdk = new NodeSDK({
      serviceName: config.serviceName,
      autoDetectResources: false,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.endpoint.replace(/\/+$/, "")}/v1/traces` }))],
      instrumentations: [],
      // Metrics are Prometheus's (/metrics) and logs pino's: the SDK must not start OTLP exporters of its own for them.
      metricReaders: [],
      logRecordProcessors: [],
    });
    sdk.start();
    return new OpenTelemetryTracing(sdk, role);
  }

  private parentOf(options: SpanOptions): Context {
    return options.parent ? propagation.extract(ROOT_CONTEXT, options.parent) : context.active();
  }

  private start(name: string, options: SpanOptions): { span: Span; within: Context } {
    const parent = this.parentOf(options);
    const span = this.tracer.startSpan(name, { kind: KINDS[options.kind ?? "internal"], attributes: { "docuchat.process": this.role, ...attributesOf(options.attributes) } }, parent);
    return { span, within: trace.setSpan(parent, span) };
  }

  async inSpan<T>(name: string, options: SpanOptions, work: (span: { set(attributes: SpanAttributes): void }) => Promise<T>): Promise<T> {
    const { span, within } = this.start(name, options);
    try {
      return await context.with(within, () => work({ set: (attributes) => span.setAttributes(attributesOf(attributes)) }));
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  openSpan<T>(name: string, options: SpanOptions, work: (span: OpenSpan) => T): T {
    const { span, within } = this.start(name, options);
    let ended = false;
    const open: OpenSpan = {
      set: (attributes) => span.setAttributes(attributesOf(attributes)),
      rename: (newName) => span.updateName(newName),
      end: (error) => {
        if (ended) return;
        ended = true;
        if (error !== undefined) failed(span, error);
        span.end();
      },
    };
    return context.with(within, () => work(open));
  }

  carrier(): TraceCarrier | undefined {
    const carried: Partial<TraceCarrier> = {};
    propagation.inject(context.active(), carried);
    return carried.traceparent ? { traceparent: carried.traceparent, ...(carried.tracestate ? { tracestate: carried.tracestate } : {}) } : undefined;
  }

  /** Sends the spans still batched (on stop, so the last requests' traces are not lost). */
  async stop(): Promise<void> {
    await this.sdk.shutdown();
    // The SDK registers itself as OpenTelemetry's global; a runtime started after this one (tests) registers its own.
    trace.disable();
    propagation.disable();
    context.disable();
  }
}
