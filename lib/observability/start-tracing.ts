import { SpanKind } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { processState } from "@/lib/process-state";
import type { ExportResult } from "@opentelemetry/core";
import { setting } from "@/lib/config/settings";
import { markTracingOn } from "@/lib/observability/tracing";

/**
 * OpenTelemetry's Node SDK, configured by its standard variables (declared in
 * lib/config/settings.ts, documented in docs/configuration.md): started by instrumentation.ts
 * when an OTLP endpoint or OTEL_TRACES_EXPORTER is set and OTEL_SDK_DISABLED is not true.
 * Otherwise nothing of the SDK is even loaded, and the hooks of lib/observability/tracing.ts
 * call straight through.
 *
 * Spans: ours (tracing.ts), undici's for every `fetch` (upstream MCP servers, OAuth; it also
 * sends their `traceparent`), Prisma's for database work, and Next.js's own for its requests.
 */

/** Whether the OTEL_* settings ask for traces. */
export function tracingRequested(): boolean {
  if (setting("OTEL_SDK_DISABLED")) return false;
  const exporter = setting("OTEL_TRACES_EXPORTER");
  if (exporter === "none") return false;
  return Boolean(setting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? setting("OTEL_EXPORTER_OTLP_ENDPOINT") ?? exporter);
}

const slot = processState<{ switchboardTraceSdk?: { forceFlush(): Promise<void>; shutdown(): Promise<void> } }>();

export async function startTracing(): Promise<void> {
  if (slot.switchboardTraceSdk || !tracingRequested()) return;
  const [{ NodeSDK }, { BatchSpanProcessor }, { UndiciInstrumentation }, { PrismaInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/instrumentation-undici"),
    import("@prisma/instrumentation"),
  ]);
  const processor = new BatchSpanProcessor({ exporter: new ScrubbingExporter(await otlpExporter()) });
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES, read by the SDK, win over this default.
    ...(setting("OTEL_SERVICE_NAME") ? {} : { serviceName: "switchboard" }),
    spanProcessors: [processor],
    instrumentations: [
      // url.full would carry the path and query (an http tool's path arguments, an upstream's key
      // in its URL): the origin only. scrub() drops url.path too.
      new UndiciInstrumentation({ requestHook: (span, request) => span.setAttribute("url.full", request.origin) }),
      new PrismaInstrumentation(),
    ],
  });
  sdk.start();
  slot.switchboardTraceSdk = { forceFlush: () => processor.forceFlush(), shutdown: () => sdk.shutdown() };
  markTracingOn();
}

/** Sends the spans ended so far (tests; a graceful stop). */
export async function flushTraces(): Promise<void> {
  await slot.switchboardTraceSdk?.forceFlush();
}

/** OTLP over http/protobuf (the specification's default) or http/json, as OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says. */
async function otlpExporter(): Promise<SpanExporter> {
  const protocol = setting("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? setting("OTEL_EXPORTER_OTLP_PROTOCOL");
  // Each exporter reads the endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables itself.
  if (protocol === "http/json") return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter();
  return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
}

/**
 * The last guard before a span leaves: query strings cut from every URL-like attribute and from
 * span names (Next.js names a span after the request's URL until it knows the route, and records
 * it in `http.target`: an OAuth callback's `?code=` would go out), outbound (client) spans kept
 * to the origin they called (an upstream's path holds a tool's arguments or a key), and exception
 * events reduced to their type (a message can quote what a caller sent).
 */
class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans.map(scrub), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function withoutQuery(value: string): string {
  const q = value.indexOf("?");
  return q === -1 ? value : value.slice(0, q);
}

/** Path attributes of an outbound request: dropped (host and port stay). */
const CLIENT_PATH_KEYS = new Set(["url.path", "http.target", "http.url"]);

function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return "";
  }
}

function scrubAttribute(key: string, value: unknown, client: boolean): unknown {
  if (typeof value !== "string") return value;
  if (client && key === "url.full") return originOf(value);
  return /url|target|query|path/i.test(key) ? withoutQuery(value) : value;
}

function scrub(span: ReadableSpan): ReadableSpan {
  const client = span.kind === SpanKind.CLIENT;
  const attributes = Object.fromEntries(
    Object.entries(span.attributes)
      .filter(([key]) => !(client && CLIENT_PATH_KEYS.has(key)))
      .map(([key, value]) => [key, scrubAttribute(key, value, client)]),
  );
  const events = span.events.map((event) => ({ ...event, attributes: event.attributes?.["exception.type"] ? { "exception.type": event.attributes["exception.type"] } : {} }));
  // A view of the span with these fields replaced; everything else (spanContext(), times) is the span's own.
  return Object.create(span, { name: { value: withoutQuery(span.name) }, attributes: { value: attributes }, events: { value: events } }) as ReadableSpan;
}
