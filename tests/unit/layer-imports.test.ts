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
