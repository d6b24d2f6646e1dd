import http from "node:http";
import type net from "node:net";
import path from "node:path";
import protobuf from "protobufjs";

/**
 * An OTLP/HTTP trace receiver of the test's own on 127.0.0.1: accepts what the SDK's exporter
 * posts to /v1/traces, over http/protobuf (the specification's default: decoded by protobufjs
 * with OTLP's own .proto files, tests/fixtures/otlp-proto) or http/json, and keeps every span,
 * flattened, with its resource's service name and the protocol it came by.
 */

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
  /** The span as it arrived (decoded, ids in hex), for "no secret anywhere in it" checks. */
  raw: unknown;
  protocol: "http/protobuf" | "http/json";
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

type OtlpSpan = Record<string, unknown>;
type OtlpBody = { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> };

const PROTO_ROOT = path.resolve(import.meta.dirname, "../fixtures/otlp-proto");
let exportRequest: protobuf.Type | undefined;

/** ExportTraceServiceRequest as OTLP/JSON spells it: camelCase fields, ids in hex, numbers as numbers. */
function decodeProtobuf(body: Buffer): OtlpBody {
  if (!exportRequest) {
    const root = new protobuf.Root();
    // The files import each other by their path from the proto root, as protoc's -I would.
    root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(PROTO_ROOT, target));
    root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto");
    exportRequest = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
  }
  const hex = (bytes: unknown) => (bytes instanceof Uint8Array && bytes.length > 0 ? Buffer.from(bytes).toString("hex") : undefined);
  const object = exportRequest.toObject(exportRequest.decode(body), { longs: Number, enums: Number }) as OtlpBody;
  for (const resourceSpan of object.resourceSpans ?? []) {
    for (const scope of resourceSpan.scopeSpans ?? []) {
      scope.spans = (scope.spans ?? []).map((span) => ({ ...span, traceId: hex(span.traceId), spanId: hex(span.spanId), parentSpanId: hex(span.parentSpanId) }));
    }
  }
  return object;
}

function spansOf(body: OtlpBody, protocol: ReceivedSpan["protocol"]): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpan) => {
    const service = String(attributesOf(resourceSpan.resource?.attributes)["service.name"] ?? "");
    return (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: span.parentSpanId ? String(span.parentSpanId) : undefined,
        name: String(span.name),
        kind: Number(span.kind),
        service,
        attributes: attributesOf(span.attributes as KeyValue[]),
        raw: span,
        protocol,
      })),
    );
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const type = String(req.headers["content-type"]);
      const body = Buffer.concat(chunks);
      if (req.url === "/v1/traces" && type.includes("protobuf")) {
        spans.push(...spansOf(decodeProtobuf(body), "http/protobuf"));
        // An empty ExportTraceServiceResponse: everything accepted.
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      } else if (req.url === "/v1/traces" && type.includes("json")) {
        spans.push(...spansOf(JSON.parse(body.toString("utf8")) as OtlpBody, "http/json"));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        res.writeHead(415).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
