import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * "components never import from `app/`" and "`lib/` holds logic (no React)": app/ routes use
 * components and lib, components use lib, and nothing points back up. A component that needs
 * a server action takes it as a prop from its page. eslint.config.mjs says the same to the
 * editor; this test keeps it when the linter is not run.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith("lib/generated/"));
}

/** Every module specifier of a file that resolves into `target/` (alias or relative). */
function importsInto(file: string, target: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]);
  return specifiers.filter((s) => {
    if (s.startsWith("@/")) return s.slice(2).split("/")[0] === target;
    if (!s.startsWith(".")) return false;
    return path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), s)).split(path.sep)[0] === target;
  });
}

describe("layer imports", () => {
  it("components/ never import from app/", () => {
    const offenders = sourceFiles("components").flatMap((f) => importsInto(f, "app").map((s) => `${f}: ${s}`));
    expect(offenders).toEqual([]);
  });

  it("lib/ never imports from app/ or components/", () => {
    const offenders = sourceFiles("lib").flatMap((f) => [...importsInto(f, "app"), ...importsInto(f, "components")].map((s) => `${f}: ${s}`));
    expect(offenders).toEqual([]);
  });
});

/**
 * lib/mcp/serve in four layers (docs/architecture.md). The HTTP edge (fetch Request in,
 * Response out) may use the protocol and per-connection state; the protocol may use state;
 * state stands alone; the Node adapter sits outside them all — serve-node hands its request to
 * the edge's serveMcp, and the edge never sees a node:http object, so app/ routes serve the
 * same code. mcp-config.ts (the settings every layer reads) imports none of them. What the
 * code does beyond that rule is listed below, each crossing with its reason; any other fails.
 */
const SERVE = "lib/mcp/serve";
const MAY_IMPORT: Record<string, string[]> = {
  "node-adapter": ["http-edge"],
  "http-edge": ["protocol", "connection-state"],
  protocol: ["connection-state"],
  "connection-state": [],
};
const CROSSINGS: Record<string, string> = {
  "protocol/legacy-stateless.ts -> node-adapter/node-sse-sink.ts": "a stateless answer's SSE frames go straight to the socket when serve-node offered a sink",
  "protocol/legacy-transport.ts -> node-adapter/node-sse-sink.ts": "the transport writes those frames (the sink's type)",
  "protocol/direct-tool-call.ts -> node-adapter/node-sse-sink.ts": "a tools/call answered without the SDK writes its frames there too",
  "protocol/legacy-stateless.ts -> http-edge/responses.ts": "GET and DELETE without sessions answer 405 with the edge's JSON-RPC error body",
  "connection-state/sessions.ts -> protocol/build-server.ts": "a session is a server, built once and kept",
  "connection-state/sessions.ts -> protocol/legacy-transport.ts": "…on the transport it keeps",
  "connection-state/sessions.ts -> protocol/legacy-stateless.ts": "an initialize the transport refused closes like a stateless answer",
  "connection-state/sessions.ts -> http-edge/check-protocol-version.ts": "a session's server negotiates the 2025-era versions the edge lets through",
  "connection-state/hold-listen-subscriptions.ts -> protocol/build-server.ts": "listen streams share the per-connection subscription cap",
};

/** Every file of lib/ a file imports (type-only imports too: a layer's types are its knowledge). */
function libImportsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]);
  return specifiers.flatMap((s) => {
    const base = s.startsWith("@/") ? s.slice(2) : s.startsWith(".") ? path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), s)) : null;
    return base ? [`${base}.ts`] : [];
  });
}

const layerOf = (file: string) => (file.startsWith(`${SERVE}/`) ? path.relative(SERVE, file).split(path.sep)[0] : null);

describe("lib/mcp/serve layers", () => {
  it("every file of lib/mcp/serve is in a layer's folder, or is mcp-config.ts", () => {
    const loose = sourceFiles(SERVE).filter((f) => !(layerOf(f)! in MAY_IMPORT) && f !== `${SERVE}/mcp-config.ts`);
    expect(loose).toEqual([]);
  });

  it("each layer imports only the layers below it, and the listed crossings", () => {
    const crossings = sourceFiles(SERVE).flatMap((file) =>
      libImportsOf(file)
        .filter((target) => layerOf(target) && layerOf(target) !== layerOf(file) && target !== `${SERVE}/mcp-config.ts`)
        .filter((target) => !(MAY_IMPORT[layerOf(file)!] ?? []).includes(layerOf(target)!))
        .map((target) => `${path.relative(SERVE, file)} -> ${path.relative(SERVE, target)}`),
    );
    expect(crossings.filter((c) => !(c in CROSSINGS))).toEqual([]);
    // A crossing the code no longer makes is taken off the list, so the list stays the truth.
    expect(Object.keys(CROSSINGS).filter((c) => !crossings.includes(c))).toEqual([]);
  });

  it("the rest of lib/ reaches MCP serving only through the HTTP edge", () => {
    const offenders = sourceFiles("lib").filter((f) => !layerOf(f)).flatMap((file) =>
      libImportsOf(file).filter((t) => layerOf(t) && layerOf(t) !== "http-edge").map((t) => `${file} -> ${t}`),
    );
    expect(offenders).toEqual([]);
  });
});
