import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CURL_PROTOCOL_VERSION } from "@/components/servers/client-config";

/**
 * README's "Your first MCP server, in the browser" names what to press in bold: each name must
 * be one the console shows (a button, link, tab, card title or navigation label), so a reader
 * finds it; it said "Connectors → New" when no button was called New. Its curl asks for the
 * revision the server page's example does.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function walkthrough(): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Your first MCP server, in the browser");
  const end = readme.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(-1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function consoleSources(): string {
  return ["app", "components"]
    .flatMap((dir) => fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name)).map((e) => path.join(e.parentPath, e.name)))
    .map((file) => fs.readFileSync(file, "utf8"))
    .join("\n");
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Shown by the console: a whole string literal ("Create server", label: "API keys") or a whole JSX text (>HTTP API<, or alone on its line). */
function isConsoleLabel(sources: string, name: string): boolean {
  const n = escape(name);
  return new RegExp(`["'\`]${n}["'\`]|>\\s*${n}\\s*<|^\\s*${n}\\s*$`, "m").test(sources);
}

describe("README's walkthrough", () => {
  it("names only controls the console has, by their exact labels", () => {
    const sources = consoleSources();
    const names = [...walkthrough().matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((name) => !isConsoleLabel(sources, name))).toEqual([]);
  });

  it("initializes with the protocol revision of the server page's curl example", () => {
    const versions = [...walkthrough().matchAll(/"protocolVersion":"([^"]+)"/g)].map((m) => m[1]);
    expect(versions).toEqual([CURL_PROTOCOL_VERSION]);
  });
});
