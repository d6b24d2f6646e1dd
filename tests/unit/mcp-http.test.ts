import { afterEach, describe, expect, it } from "vitest";
import { allowedHostnames, untrustedHostOrOrigin } from "@/lib/mcp/serve/http-edge/validate-origin";
import { restoreResourceNotFound } from "@/lib/mcp/serve/protocol/legacy-transport";

afterEach(() => {
  delete process.env.MCP_ALLOWED_HOSTS;
  delete process.env.PUBLIC_URL;
});

const headers = (h: Record<string, string>) => new Headers(h);

describe("Host and Origin validation (DNS rebinding)", () => {
  it("defaults to the localhost names, plus the host of PUBLIC_URL", () => {
    expect(allowedHostnames()).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    // The host of PUBLIC_URL joins the allowed ones: the case under test.
    process.env.PUBLIC_URL = "https://Switchboard.Example.com:8443/base";
    expect(allowedHostnames()).toEqual(["localhost", "127.0.0.1", "[::1]", "switchboard.example.com"]);
  });

  it("MCP_ALLOWED_HOSTS replaces the defaults; ports and schemes in entries are ignored", () => {
    // The setting under test: a deployment's own host names.
    process.env.MCP_ALLOWED_HOSTS = "a.example, b.example:9000, https://c.example/";
    expect(allowedHostnames()).toEqual(["a.example", "b.example", "c.example"]);
  });

  it("refuses a missing or foreign Host, and a foreign or opaque Origin", () => {
    expect(untrustedHostOrOrigin(headers({}))).toMatch(/Host/);
    expect(untrustedHostOrOrigin(headers({ host: "evil.example" }))).toMatch(/evil\.example/);
    expect(untrustedHostOrOrigin(headers({ host: "localhost:3000", origin: "https://evil.example" }))).toMatch(/Origin/);
    expect(untrustedHostOrOrigin(headers({ host: "localhost:3000", origin: "null" }))).toMatch(/Origin/);
    expect(untrustedHostOrOrigin(headers({ host: "localhost:3000", origin: "http://localhost:5173" }))).toBeNull();
    expect(untrustedHostOrOrigin(headers({ host: "[::1]:3000" }))).toBeNull();
  });

  it("with `*`, any Host is accepted but an Origin must name that same host", () => {
    // The setting under test: any Host.
    process.env.MCP_ALLOWED_HOSTS = "*";
    expect(untrustedHostOrOrigin(headers({ host: "anything.example" }))).toBeNull();
    expect(untrustedHostOrOrigin(headers({ host: "anything.example", origin: "https://anything.example" }))).toBeNull();
    expect(untrustedHostOrOrigin(headers({ host: "anything.example", origin: "https://evil.example" }))).toMatch(/Origin/);
  });
});

describe("2025-era resource-not-found code", () => {
  it("restores -32002 for an error whose data is exactly { uri }, and leaves every other message alone", () => {
    const notFound = { jsonrpc: "2.0" as const, id: 3, error: { code: -32602, message: "Resource not found: x://y", data: { uri: "x://y" } } };
    expect(restoreResourceNotFound(notFound)).toEqual({ ...notFound, error: { ...notFound.error, code: -32002 } });
    const invalid = { jsonrpc: "2.0" as const, id: 4, error: { code: -32602, message: "Unknown tool: t" } };
    expect(restoreResourceNotFound(invalid)).toBe(invalid);
    const more = { jsonrpc: "2.0" as const, id: 5, error: { code: -32602, message: "bad", data: { uri: "x://y", reason: "z" } } };
    expect(restoreResourceNotFound(more)).toBe(more);
    const result = { jsonrpc: "2.0" as const, id: 6, result: {} };
    expect(restoreResourceNotFound(result)).toBe(result);
  });
});
