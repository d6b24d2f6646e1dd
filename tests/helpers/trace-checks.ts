import { expect, vi } from "vitest";
import { flushTraces } from "@/lib/observability/start-tracing";
import type { OtlpReceiver, ReceivedSpan } from "@/tests/helpers/otlp-receiver";

/**
 * What the tracing tests check of one traced `tools/call` (issue 28 "Traces"), whichever OTLP
 * protocol carried the spans and whichever kind of connector served the call.
 */

/** Every span of `traceId`, waiting until `until` holds for them (the exporter sends in batches). */
export async function spansOfTrace(receiver: OtlpReceiver, traceId: string, until: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  let spans: ReceivedSpan[] = [];
  await vi.waitFor(
    async () => {
      await flushTraces();
      spans = receiver.spans.filter((span) => span.traceId === traceId);
      expect(until(spans), `spans received: ${receiver.spans.map((span) => span.name).join(", ")}`).toBe(true);
    },
    { timeout: 10_000, interval: 100 },
  );
  return spans;
}

export function ancestorsOf(span: ReceivedSpan, spans: ReceivedSpan[]): string[] {
  const names: string[] = [];
  for (let parent = spans.find((s) => s.spanId === span.parentSpanId); parent; parent = spans.find((s) => s.spanId === parent!.parentSpanId)) names.push(parent.name);
  return names;
}

/** `00-<trace id>-<parent span id>-01` split, checked to be a sampled W3C traceparent. */
export function parseTraceparent(header: string): { traceId: string; parentId: string } {
  const [version, traceId, parentId, flags] = header.split("-");
  expect(version).toBe("00");
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(flags).toBe("01");
  return { traceId, parentId };
}

/**
 * The tree of a `tools/call` at `POST /mcp/{serverId}` whose MCP client shares the test's
 * process (its own fetch span, undici's, is the caller's traceparent the server span joins):
 * the request's server span, `authenticate`, `visibility`, the upstream span `upstreamName`
 * and Prisma's database spans, every one under the request's span.
 */
export function expectCallTree(spans: ReceivedSpan[], upstreamName: string): { root: ReceivedSpan; upstream: ReceivedSpan } {
  const caller = spans.find((span) => !span.parentSpanId)!;
  expect(caller).toMatchObject({ name: "POST", kind: 3 });
  const root = spans.find((span) => span.name === "POST /mcp/{serverId}")!;
  expect(root).toMatchObject({ kind: 2, service: "switchboard-test", parentSpanId: caller.spanId });
  expect(root.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/mcp/{serverId}", "http.response.status_code": 200 });
  for (const span of spans.filter((s) => s !== root && s !== caller)) expect(ancestorsOf(span, spans)).toContain(root.name);
  const names = spans.map((span) => span.name);
  expect(names).toEqual(expect.arrayContaining(["authenticate", "visibility", upstreamName]));
  expect(names.some((name) => name.startsWith("prisma:"))).toBe(true);
  const upstream = spans.find((span) => span.name === upstreamName)!;
  expect(upstream.kind).toBe(3);
  return { root, upstream };
}

/** None of `secrets` anywhere in the spans as they were exported (names, attributes, events). */
export function expectNoneOf(spans: ReceivedSpan[], secrets: string[]): void {
  const exported = JSON.stringify(spans.map((span) => span.raw));
  for (const secret of secrets) expect(exported).not.toContain(secret);
}
