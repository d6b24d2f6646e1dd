import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README's configuration table names every environment variable the product reads, so an
 * operator never has to read the code to learn a setting exists.
 */

const ROOT = process.cwd();
const SOURCE_DIRS = ["lib", "app", "scripts", "packages/host-resources/src"];
const NOT_SETTINGS = new Set(["NODE_ENV", "NEXT_RUNTIME", "NEXT_PHASE", "CI", "HOME", "PATH"]);
const ENV_READ =
  /(?:process\.env|\benv)\.([A-Z][A-Z0-9_]+)|process\.env\[["']([A-Z][A-Z0-9_]+)["']\]|\b\w*(?:Int|Env|Number)\w*\(\s*["']([A-Z][A-Z0-9_]{2,})["']/g;

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes("generated"))
    .map((f) => path.join(full, f));
}

function settingsReadByTheProduct(): string[] {
  const names = new Set<string>();
  for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
    for (const m of fs.readFileSync(file, "utf8").matchAll(ENV_READ)) names.add(m[1] ?? m[2] ?? m[3]);
  }
  return [...names].filter((n) => !NOT_SETTINGS.has(n)).sort();
}

describe("README configuration", () => {
  it("documents every environment variable the product reads", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const settings = settingsReadByTheProduct();
    expect(settings.length).toBeGreaterThan(30);
    expect(settings.filter((name) => !readme.includes(name))).toEqual([]);
  });
});
