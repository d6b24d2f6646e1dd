import http from "node:http";
import type net from "node:net";

/**
 * An OTLP/HTTP trace receiver of the test's own on 127.0.0.1: accepts what the SDK's exporter
 * posts to /v1/traces in OTLP/JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and keeps every span,
 * flattened, with its resource's service name.
 */

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
  /** The span as it arrived, for "no secret anywhere in it" checks. */
  raw: unknown;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

function valueOf(value: Record<string, unknown>): unknown {
  return Object.values(value)[0];
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url !== "/v1/traces" || !String(req.headers["content-type"]).includes("json")) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }> };
      for (const resourceSpan of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpan.resource?.attributes)["service.name"] ?? "");
        for (const scope of resourceSpan.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: String(span.traceId),
              spanId: String(span.spanId),
              parentSpanId: span.parentSpanId ? String(span.parentSpanId) : undefined,
              name: String(span.name),
              kind: Number(span.kind),
              service,
              attributes: attributesOf(span.attributes as KeyValue[]),
              raw: span,
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
