import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace, type Attributes, type TextMapGetter } from "@opentelemetry/api";
import { processState } from "@/lib/process-state";

/**
 * The spans of a request (docs/operations.md, "Traces"): one trace per MCP request and per admin
 * API request, with spans for authentication, visibility, each upstream call and the database
 * work (Prisma's own spans, lib/observability/start-tracing.ts). These helpers are the only
 * hooks the rest of the code calls; with tracing off (no OTEL_* setting) each is a flag test
 * and a direct call of the work — no span objects, no context switches.
 *
 * Attributes are names, routes, methods, statuses and hosts only: never an argument, a result,
 * a header value, a query string, a token or a secret.
 */

const TRACER = "switchboard";
const slot = processState<{ switchboardTracing?: boolean }>();

/** Set once the SDK runs (start-tracing.ts); read through globalThis, as Next's bundles each hold their own copy of this module. */
export function markTracingOn(): void {
  slot.switchboardTracing = true;
}

export function tracingOn(): boolean {
  return slot.switchboardTracing === true;
}

const HEADERS_GETTER: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

async function inSpan<T>(span: Span, ctx: ReturnType<typeof context.active>, work: () => Promise<T>, statusOf?: (result: T) => number): Promise<T> {
  try {
    const result = await context.with(trace.setSpan(ctx, span), work);
    const status = statusOf?.(result);
    if (status !== undefined) {
      span.setAttribute("http.response.status_code", status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return result;
  } catch (e) {
    // The error's class only: messages can quote what a caller sent.
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute("error.type", e instanceof Error ? e.name : typeof e);
    throw e;
  } finally {
    span.end();
  }
}

/**
 * The server span of one HTTP request (`POST /mcp/{serverId}`, `GET /api/v1/orgs`): a child of
 * the framework's span when one is active (Next.js makes its own), else of the caller's W3C
 * `traceparent`, else a new trace.
 */
export function traceRequest(request: Request, route: string, work: () => Promise<Response>): Promise<Response> {
  if (!tracingOn()) return work();
  const active = context.active();
  const parent = trace.getSpan(active) ? active : propagation.extract(ROOT_CONTEXT, request.headers, HEADERS_GETTER);
  const method = request.method.toUpperCase();
  const span = trace.getTracer(TRACER).startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "http.route": route } }, parent);
  return inSpan(span, parent, work, (response) => response.status);
}

/** An internal step of a request (authentication, visibility). */
export function traced<T>(name: string, work: () => Promise<T>, attributes?: Attributes): Promise<T> {
  if (!tracingOn()) return work();
  const span = trace.getTracer(TRACER).startSpan(name, { attributes });
  return inSpan(span, context.active(), work);
}

/**
 * One call to an upstream (`kind`: http or mcp): a client span. `work` gets the W3C
 * `traceparent` (and `tracestate`) headers to send, so the upstream's spans join this trace
 * (none with tracing off). Only the upstream's host is recorded, not its path or query (they
 * can carry keys).
 */
export function traceUpstream<T>(kind: "http" | "mcp", operation: string, url: URL | null, work: (traceHeaders: Record<string, string>) => Promise<T>): Promise<T> {
  if (!tracingOn()) return work(NO_HEADERS);
  const span = trace.getTracer(TRACER).startSpan(`${kind} ${operation}`, {
    kind: SpanKind.CLIENT,
    attributes: { "switchboard.upstream.kind": kind, ...(url ? { "server.address": url.hostname } : {}), ...(url?.port ? { "server.port": Number(url.port) } : {}) },
  });
  const traceHeaders: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), traceHeaders);
  return inSpan(span, context.active(), () => work(traceHeaders));
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The trace id of the span in effect, for log lines and audit events; undefined with tracing off. */
export function currentTraceId(): string | undefined {
  if (!tracingOn()) return undefined;
  const spanContext = trace.getSpan(context.active())?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
