import { setUpstreamDelay, upstreamRecord } from "./serve-upstream";
import type { TenantData } from "./build-tenant-data";
import { type Era, type HttpCall, initializeParams, type Json, mcpCall, send } from "./mcp-wire";

/**
 * What `npm run bench:mcp` measures: each kind of request as sent to the product and to its
 * baseline (the bare SDK server; for tools/call, the same request sent straight to the
 * upstream API, and a third side, the bare relay: the protocol's own floor), and the check
 * its first answer on every side must pass before it is measured.
 */

type Answer = Awaited<ReturnType<typeof send>>;

export interface Kind {
  name: string;
  product: HttpCall;
  baseline: HttpCall;
  baselineLabel: "bare" | "upstream";
  /** Whose process tree the baseline's CPU time is read from (CpuRoots in bench/mcp/measure-kinds.ts). */
  baselineRoot: "bare" | "bareShared" | "upstream";
  /** tools/call kinds: the same call to the bare relay (bench/mcp/serve-relay.ts), measured between the product and the direct call. */
  floor?: HttpCall;
  /** Run before every check, warm-up and measurement of this kind: sets the upstream's answer delay. */
  prepare?(): Promise<void>;
  /** Throws, naming what is wrong, unless every side's first answer is what the tenant must give. */
  check(product: Answer, baseline: Answer, floor?: Answer): void;
}

export interface Endpoints {
  product: string;
  bare: string;
  upstream: string;
  /** The bare relay's MCP endpoint (tools/call kinds' floor). */
  relay: string;
  memberKey: string;
  /** The shared endpoint /mcp, its bare twin (the same 1,000 tools) and the shared workspace's member key. */
  shared: string;
  bareShared: string;
  sharedKey: string;
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

function results(kind: string, product: Answer, baseline: Answer): [Json, Json] {
  for (const [side, a] of [["product", product], ["bare", baseline]] as const) {
    expect(a.status === 200 && a.message?.result, `${kind}: the ${side} side answered HTTP ${a.status} ${a.text.slice(0, 300)}`);
  }
  return [product.message.result, baseline.message.result];
}

const toolNames = (result: Json): string[] => (result.tools ?? []).map((t: { name: string }) => t.name).sort();

function checkTools(kind: string, data: TenantData) {
  const expected = data.connectors.flatMap((c) => c.tools.map((t) => t.name)).sort();
  return (product: Answer, baseline: Answer) => {
    const [p, b] = results(kind, product, baseline);
    for (const [side, r] of [["product", p], ["bare", b]] as const) {
      expect(JSON.stringify(toolNames(r)) === JSON.stringify(expected), `${kind}: the ${side} side lists ${r.tools?.length} tools, not the tenant's ${expected.length}`);
    }
    expect(JSON.stringify(p.tools) === JSON.stringify(b.tools), `${kind}: the two sides list different tools`);
  };
}

function checkInstructions(kind: string, data: TenantData) {
  return (product: Answer, baseline: Answer) => {
    const [p, b] = results(kind, product, baseline);
    expect(typeof p.instructions === "string" && p.instructions.startsWith(data.serverInstructions), `${kind}: the product's instructions do not start with the server's own`);
    for (const s of data.skills) expect(p.instructions.includes(s.content), `${kind}: the product's instructions lack the skill "${s.name}"`);
    expect(p.instructions === b.instructions, `${kind}: the instructions differ between the two sides`);
  };
}

function checkRead(kind: string, uri: string, text: string) {
  return (product: Answer, baseline: Answer) => {
    for (const [side, r] of Object.entries(results(kind, product, baseline))) {
      expect(r.contents?.[0]?.uri === uri && r.contents[0].text === text, `${kind}: side ${side} did not answer the exact text of ${uri}`);
    }
  };
}

function checkResourceList(kind: string, data: TenantData) {
  const stored = data.connectors.flatMap((c) => c.resources.map((r) => r.uri));
  return (product: Answer, baseline: Answer) => {
    const [p, b] = results(kind, product, baseline);
    const uris = (r: Json) => (r.resources ?? []).map((x: { uri: string }) => x.uri);
    for (const uri of stored) expect(uris(p).includes(uri), `${kind}: the product does not list ${uri}`);
    expect(JSON.stringify(p.resources) === JSON.stringify(b.resources), `${kind}: the two sides list different resources`);
  };
}

/** The name of the tools/call kind against an upstream answering after `delayMs` (--upstream-delay-ms). */
export const delayedToolCallName = (delayMs: number) => `tools/call http tool, upstream answering in ${delayMs} ms (2025-11-25)`;

/**
 * tools/call of `crm_get_<noun>` on three sides: through the product, through the bare relay
 * and as the GET the product makes, sent straight to the upstream — which answers after
 * `delayMs` (0: at once) while this kind is measured.
 */
function toolCallKind(e: Endpoints, data: TenantData, delayMs: number): Kind {
  const crm = data.connectors[0];
  const tool = crm.tools.find((t) => t.name.startsWith(`${crm.domain}_get_`))!;
  const path = `/api/${crm.domain}${tool.request.path.replace("{id}", "acc_0042")}?expand=owner`;
  const record = upstreamRecord(path);
  const call = { name: tool.name, arguments: { id: "acc_0042", expand: ["owner"] } };
  const name = delayMs > 0 ? delayedToolCallName(delayMs) : "tools/call http tool (2025-11-25)";
  return {
    name,
    product: mcpCall(e.product, "2025-11-25", "tools/call", call, e.memberKey),
    // The headers the product's http tool sends (lib/connectors/runtime/http-tool.ts).
    baseline: { url: e.upstream + path, method: "GET", headers: { accept: "application/json, text/*;q=0.9, */*;q=0.8", "content-type": "application/json", "user-agent": "switchboard-connector/0.1" } },
    baselineLabel: "upstream",
    baselineRoot: "upstream",
    floor: mcpCall(e.relay, "2025-11-25", "tools/call", call),
    prepare: () => setUpstreamDelay(e.upstream, delayMs),
    check(product, direct, relay) {
      const result = product.message?.result;
      expect(product.status === 200 && result && !result.isError, `${name}: the product answered HTTP ${product.status} ${product.text.slice(0, 300)}`);
      const text = (result.content ?? []).map((c: { text?: string }) => c.text ?? "").join("");
      expect(text.includes(record) || JSON.stringify(result.structuredContent ?? null) === record, `${name}: the product's result is not the upstream's record: ${text.slice(0, 300)}`);
      expect(direct.status === 200 && direct.text === record, `${name}: the upstream answered HTTP ${direct.status} ${direct.text.slice(0, 200)}`);
      // The floor must put the same result on the wire, or the comparison would be of different work.
      const relayed = relay?.message?.result;
      expect(relay?.status === 200 && JSON.stringify(relayed) === JSON.stringify(result), `${name}: the bare relay's result differs from the product's: ${relay?.text.slice(0, 300)}`);
    },
  };
}

export function defineKinds(e: Endpoints, data: TenantData, upstreamDelayMs: number): Kind[] {
  const both = (name: string, era: Era, method: string, params: Record<string, unknown>, check: (k: string) => Kind["check"]): Kind => {
    const kind = `${name} (${era})`;
    return {
      name: kind,
      product: mcpCall(e.product, era, method, params, e.memberKey),
      baseline: mcpCall(e.bare, era, method, params),
      baselineLabel: "bare",
      baselineRoot: "bare",
      check: check(kind),
    };
  };
  const shared: Kind = {
    name: SHARED_TOOLS_LIST,
    product: mcpCall(e.shared, "2025-11-25", "tools/list", {}, e.sharedKey),
    baseline: mcpCall(e.bareShared, "2025-11-25", "tools/list", {}),
    baselineLabel: "bare",
    baselineRoot: "bareShared",
    check: checkTools(SHARED_TOOLS_LIST, data),
  };
  const guide = data.connectors[7].resources[2]; // a 2–3 KB guide
  return [
    both("initialize", "2025-11-25", "initialize", initializeParams("2025-11-25"), (k) => checkInstructions(k, data)),
    both("tools/list", "2025-11-25", "tools/list", {}, (k) => checkTools(k, data)),
    both("resources/list", "2025-11-25", "resources/list", {}, (k) => checkResourceList(k, data)),
    both("resources/read", "2025-11-25", "resources/read", { uri: guide.uri }, (k) => checkRead(k, guide.uri, guide.text)),
    toolCallKind(e, data, 0),
    toolCallKind(e, data, upstreamDelayMs),
    both("server/discover", "2026-07-28", "server/discover", {}, (k) => checkInstructions(k, data)),
    both("tools/list", "2026-07-28", "tools/list", {}, (k) => checkTools(k, data)),
    both("resources/read", "2026-07-28", "resources/read", { uri: guide.uri }, (k) => checkRead(k, guide.uri, guide.text)),
    shared,
  ];
}

/**
 * Issue 11: "/mcp (shared) with 10 servers of 100 tools each: ≥ 0.3× the bare server's
 * tools/list rps for the same 1,000 tools" (2025-11-25, stateless POSTs).
 */
export const SHARED_TOOLS_LIST = "tools/list /mcp (shared)";

const NOWHERE = "http://127.0.0.1:9";
/** Endpoints that are never called: to know the kinds (names, baselines) before anything runs. */
export const PLACEHOLDER_ENDPOINTS: Endpoints = { product: NOWHERE, bare: NOWHERE, upstream: NOWHERE, relay: NOWHERE, memberKey: "", shared: NOWHERE, bareShared: NOWHERE, sharedKey: "" };

/** The kinds' names as printed, in order (for --kinds). */
export function kindNames(data: TenantData, upstreamDelayMs: number): string[] {
  return defineKinds(PLACEHOLDER_ENDPOINTS, data, upstreamDelayMs).map((k) => k.name);
}
