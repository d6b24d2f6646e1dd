import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callLimits } from "@/lib/connectors/pipeline/limit-call";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * Issue 22 point 1, limits: what limits one call in flight is decided in one step of the call
 * pipeline (lib/connectors/pipeline/limit-call.ts), once per kind, and no path reads a call's
 * limit settings on its own — so a new kind of call, or a new path to the upstream, cannot
 * run without them or with others.
 */

afterEach(() => {
  vi.unstubAllEnvs();
});

const connector = (type: "http" | "mcp") => ({ type }) as SnapshotConnector;

describe("the limits step decides each kind's limits", () => {
  it("an http tool: HTTP_TOOL_TIMEOUT_MS and HTTP_TOOL_MAX_RESPONSE_BYTES; an mcp tool, a prompt, a resource read: UPSTREAM_CALL_TIMEOUT_MS", () => {
    vi.stubEnv("HTTP_TOOL_TIMEOUT_MS", "1234"); // a value no default has, to see it is the one read
    vi.stubEnv("HTTP_TOOL_MAX_RESPONSE_BYTES", "4321"); // likewise
    vi.stubEnv("UPSTREAM_CALL_TIMEOUT_MS", "5678"); // likewise
    expect(callLimits({ kind: "tools/call", connector: connector("http") })).toEqual({ timeoutMs: 1234, maxResponseBytes: 4321 });
    expect(callLimits({ kind: "tools/call", connector: connector("mcp") })).toEqual({ timeoutMs: 5678 });
    expect(callLimits({ kind: "prompts/get", connector: connector("mcp") })).toEqual({ timeoutMs: 5678 });
    expect(callLimits({ kind: "resources/read", connector: connector("mcp") })).toEqual({ timeoutMs: 5678 });
  });
});

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function readersOf(name: string): string[] {
  return sourceFiles(path.join(process.cwd(), "lib"))
    .filter((file) => fs.readFileSync(file, "utf8").includes(`setting("${name}")`))
    .map((file) => path.relative(process.cwd(), file).split(path.sep).join("/"))
    .sort();
}

describe("no path reads a call's limits on its own", () => {
  it("the http tool limits and the host-resource budget are read by the limits step only (and the connection test's probe, which is no call)", () => {
    expect(readersOf("HTTP_TOOL_TIMEOUT_MS")).toEqual(["lib/connector-health/test-connection.ts", "lib/connectors/pipeline/limit-call.ts"]);
    expect(readersOf("HTTP_TOOL_MAX_RESPONSE_BYTES")).toEqual(["lib/connectors/pipeline/limit-call.ts"]);
    expect(readersOf("HOST_RESOURCES_RATE_LIMIT")).toEqual(["lib/connectors/pipeline/limit-call.ts"]);
    expect(readersOf("HOST_RESOURCES_RATE_WINDOW_SEC")).toEqual(["lib/connectors/pipeline/limit-call.ts"]);
  });

  it("UPSTREAM_CALL_TIMEOUT_MS: in the connector runtime only for requests that are no call in flight (subscriptions, completions)", () => {
    expect(readersOf("UPSTREAM_CALL_TIMEOUT_MS").filter((file) => file.startsWith("lib/connectors/"))).toEqual([
      "lib/connectors/pipeline/limit-call.ts",
      "lib/connectors/runtime/upstream-request.ts",
    ]);
  });
});
